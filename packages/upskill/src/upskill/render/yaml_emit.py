"""A small deterministic YAML emitter for generated frontmatter.

Generated frontmatter holds only plain data (strings, numbers, booleans,
null, dates, lists and mappings), so a hand-written block-style emitter gives
byte-stable output without a serializer dependency on the hot path. Style
follows upstream: sequences at the key's indent (`- x`), strings quoted only
when a YAML 1.1 or 1.2 reader could see something other than that string
(`applyTo: '**'`), single quotes preferred, double quotes for control
characters and line breaks.
"""

from __future__ import annotations

import datetime
import functools
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Verbatim:
    """A top-level entry written as its author wrote it: `text` is the key and its value,
    one or more whole lines (`metadata:` and its indented map, quotes and comments kept),
    so a value such as `version: 1.10` reaches the client as written, not re-emitted."""

    text: str


# Scalars a YAML 1.1 or 1.2 reader would not read back as the same string.
_RESERVED = re.compile(
    r"""(?ix)
    ~ | null | true | false | yes | no | y | n | on | off
    | = | <<                                                 # 1.1 value and merge keys
    | [-+]?(?:\.inf|\.nan|inf|nan)
    | [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?    # sexagesimal (1.1)
    | [-+]?(?:0b[01_]+|0o?[0-7_]+|0x[0-9a-f_]+)
    | [-+]?(?:[0-9][0-9_]*)?\.?[0-9_]*(?:e[-+]?[0-9]+)?     # numbers
    | \d{4}-\d\d?-\d\d?(?:(?:[Tt]|\s+)\d\d?:\d\d:\d\d(?:\.\d*)?(?:\s*(?:Z|[-+]\d\d?(?::\d\d)?))?)?
    """
)
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
# Line breaks, tabs and anything YAML cannot carry raw need a double-quoted escape.
NON_YAML_CHARS = "[^\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"


@functools.cache
def _non_yaml_chars() -> re.Pattern[str]:
    return re.compile(NON_YAML_CHARS)  # ~4 ms to compile: only for non-ASCII text


def needs_double(value: str) -> bool:
    """Whether `value` holds a character YAML cannot carry raw. For ASCII text that is
    exactly what `str.isprintable` rejects (below 0x20, and 0x7f)."""
    if value.isascii():
        return not value.isprintable()
    return _non_yaml_chars().search(value) is not None


_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _double_quoted(value: str) -> str:
    out = []
    for ch in value:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif needs_double(ch):
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


@functools.lru_cache(maxsize=4096)
def scalar(value: str) -> str:
    """A string as a YAML scalar, quoted only when needed."""
    if needs_double(value):
        return _double_quoted(value)
    if _is_plain_safe(value):
        return value
    return "'" + value.replace("'", "''") + "'"


def _is_plain_safe(value: str) -> bool:
    if not value or value != value.strip() or _RESERVED.fullmatch(value):
        return False
    first = value[0]
    if first in _INDICATORS:
        # `-foo`, `?foo`, `:foo` are plain when followed by a non-space, but
        # keep it simple and quote every leading indicator.
        return False
    return not (": " in value or " #" in value or value.endswith(":"))


def _key(key: Any) -> str:
    if type(key) is not str:
        raise TypeError(f"frontmatter keys must be strings, got {key!r}")
    return scalar(key)


def _atom(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value) is int:
        return str(value)
    if type(value) is float:
        if math.isnan(value):
            return ".nan"
        if math.isinf(value):
            return ".inf" if value > 0 else "-.inf"
        text = repr(value)
        return text if ("." in text or "e" in text or "n" in text) else text + ".0"
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    if isinstance(value, str):
        return scalar(value)
    raise TypeError(f"cannot emit {type(value).__name__} as YAML")


def _is_collection(value: Any) -> bool:
    return isinstance(value, Mapping) or (
        isinstance(value, Sequence) and not isinstance(value, str | bytes)
    )


def _mapping_lines(mapping: Mapping[str, Any], indent: int) -> list[str]:
    pad = " " * indent
    lines: list[str] = []
    for key, value in mapping.items():
        head = f"{pad}{_key(key)}:"
        if not _is_collection(value):
            lines.append(f"{head} {_atom(value)}")
        elif not value:
            lines.append(f"{head} {{}}" if isinstance(value, Mapping) else f"{head} []")
        elif isinstance(value, Mapping):
            lines.append(head)
            lines.extend(_mapping_lines(value, indent + 2))
        else:
            lines.append(head)
            lines.extend(_sequence_lines(value, indent))
    return lines


def _sequence_lines(sequence: Sequence[Any], indent: int) -> list[str]:
    pad = " " * indent
    lines: list[str] = []
    for value in sequence:
        if not _is_collection(value):
            lines.append(f"{pad}- {_atom(value)}")
        elif not value:
            lines.append(f"{pad}- {{}}" if isinstance(value, Mapping) else f"{pad}- []")
        else:
            nested = (
                _mapping_lines(value, indent + 2)
                if isinstance(value, Mapping)
                else _sequence_lines(value, indent + 2)
            )
            lines.append(f"{pad}- {nested[0][indent + 2 :]}")
            lines.extend(nested[1:])
    return lines


def emit_mapping(mapping: Mapping[str, Any]) -> str:
    """Block-style YAML for a top-level mapping, one trailing newline ('' when empty);
    a `Verbatim` value stands for its whole entry."""
    if not any(isinstance(value, Verbatim) for value in mapping.values()):
        lines = _mapping_lines(mapping, 0)
    else:
        lines = []
        for key, value in mapping.items():
            if isinstance(value, Verbatim):
                lines.extend(value.text.rstrip("\n").split("\n"))
            else:
                lines.extend(_mapping_lines({key: value}, 0))
    return "".join(line + "\n" for line in lines)
