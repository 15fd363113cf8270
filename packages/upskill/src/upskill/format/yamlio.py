"""Safe YAML 1.2 loading with file and line in every error.

YAML 1.2 keeps `no`, `yes`, `on` and `off` as strings, so a skill named `no`
or a description `yes` round-trips. Duplicate keys are errors. ruamel is the
reference parser; a libyaml fast path answers first when it provably agrees.
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


def _load_or_reset(text: str) -> Any:
    try:
        return _loader().load(text)
    except Exception:
        # A failed load can leave constructor state behind that corrupts the
        # next error message (seen with duplicate keys): start afresh.
        _loader.cache_clear()
        raise


def load_yaml(text: str, path: Path, *, first_line: int = 1) -> Any:
    """Parse one YAML document; errors carry `path` and the absolute line.

    libyaml answers first (format/yaml_fast.py); ruamel parses whatever that
    path defers, so values and error messages are ruamel's in every case.
    """
    from upskill.format.yaml_fast import Defer, fast_load

    try:
        return fast_load(text)
    except Defer:
        pass
    return reference_load(text, path, first_line=first_line)


def reference_load(text: str, path: Path, *, first_line: int = 1) -> Any:
    """ruamel alone: the reference the fast path is tested against."""
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    try:
        return _load_or_reset(text)
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
