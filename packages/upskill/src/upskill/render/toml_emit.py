"""Emit the flat TOML documents some clients read (Codex subagent role files).

A role file is a handful of string keys; the body goes into a multi-line basic
string so it stays readable in review. Every value is escaped so `tomllib`
reads back exactly the text given (tests/test_render_toml.py checks that with
hypothesis), whatever quotes, backslashes or control characters it holds.
"""

from __future__ import annotations

from collections.abc import Mapping

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\f": "\\f", "\r": "\\r"}


def _char(c: str, *, multiline: bool) -> str:
    if c == "\n":
        return "\n" if multiline else "\\n"
    if c in _ESCAPES:
        return _ESCAPES[c]
    if ord(c) < 0x20 or ord(c) == 0x7F:
        return f"\\u{ord(c):04X}"
    return c


def basic_string(value: str) -> str:
    return '"' + "".join(_char(c, multiline=False) for c in value) + '"'


def multiline_string(value: str) -> str:
    """`\"\"\"` strings drop a newline right after the opening quotes: one is added, so
    the value's own first line (even an empty one) survives."""
    return '"""\n' + "".join(_char(c, multiline=True) for c in value) + '"""'


def emit_strings(fields: Mapping[str, str], *, long: frozenset[str] = frozenset()) -> str:
    """`key = "value"` lines in the given order; keys in `long` as multi-line strings.
    Keys are emitted bare, so they must be TOML bare keys (callers pass fixed names)."""
    lines = []
    for key, value in fields.items():
        text = multiline_string(value) if key in long else basic_string(value)
        lines.append(f"{key} = {text}\n")
    return "".join(lines)
