"""Safe YAML 1.2 loading with file and line in every error.

YAML 1.2 keeps `no`, `yes`, `on` and `off` as strings, so a skill named `no`
or a description `yes` round-trips. Duplicate keys are errors.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from upskill.errors import FormatError

if TYPE_CHECKING:
    from ruamel.yaml import YAML

_TOP_KEY = re.compile(r"^([^\s#\-][^:]*?)\s*:(?:\s|$)")


@functools.cache
def _loader() -> YAML:
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.allow_duplicate_keys = False
    return yaml


def load_yaml(text: str, path: Path, *, first_line: int = 1) -> Any:
    """Parse one YAML document; errors carry `path` and the absolute line."""
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    try:
        return _loader().load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = first_line + mark.line if mark is not None else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise FormatError(f"invalid YAML: {problem}", path=path, line=line) from None
    except YAMLError as exc:
        raise FormatError(f"invalid YAML: {exc}", path=path, line=first_line) from None


def top_level_key_lines(text: str, *, first_line: int = 1) -> dict[str, int]:
    """Map each unindented `key:` to its absolute line, for error locations."""
    lines: dict[str, int] = {}
    for offset, raw in enumerate(text.split("\n")):
        match = _TOP_KEY.match(raw)
        if match:
            key = match.group(1).strip().strip("'\"")
            lines.setdefault(key, first_line + offset)
    return lines
