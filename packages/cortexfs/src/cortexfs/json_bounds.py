"""JSON parsed only after its nesting depth is known to be small.

The standard parser recurses once per level: 30,000 nested `[` raise RecursionError
inside whoever parses them (the mount daemon for a JSON control, the runner for a
call's input). Depth is counted first, outside string literals, at C speed (regular
expressions, then a running sum), so a deep document is an ordinary ValueError.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

MAX_DEPTH = 64
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in `text` (brackets in strings ignored)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def loads_bounded(text: str, max_depth: int = MAX_DEPTH) -> Any:
    """`json.loads` for text nested at most `max_depth` deep; ValueError otherwise."""
    depth = json_depth(text)
    if depth > max_depth:
        raise ValueError(f"JSON nested {depth} deep; at most {max_depth} levels are accepted")
    return json.loads(text)
