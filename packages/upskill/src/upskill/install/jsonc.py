"""Read JSON-with-comments and change it by minimal textual insertion.

Editors' settings files (`.vscode/settings.json`, `opencode.json`) often carry
comments and trailing commas. Re-serialising would drop the comments, so when
a commented file needs a new entry the entry is inserted as text right after
the opening bracket of its container and everything else is left byte-for-byte.
"""

from __future__ import annotations

import json
from typing import Any


class JsoncError(ValueError):
    """Not JSON even after removing comments and trailing commas."""


def blank_comments(text: str) -> str:
    """Replace `//` and `/* */` comments with spaces, keeping every offset."""
    out = list(text)
    i, n = 0, len(text)
    in_string = False
    while i < n:
        c = text[i]
        if in_string:
            if c == "\\":
                i += 2
                continue
            if c == '"':
                in_string = False
            i += 1
            continue
        if c == '"':
            in_string = True
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end == -1 else end
            for j in range(i, end):
                out[j] = " "
            i = end
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end == -1:
                raise JsoncError("unterminated /* comment")
            for j in range(i, end + 2):
                if out[j] != "\n":
                    out[j] = " "
            i = end + 2
            continue
        i += 1
    return "".join(out)


def _blank_trailing_commas(text: str) -> str:
    out = list(text)
    in_string = False
    i = 0
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\":
                i += 2
                continue
            in_string = c != '"'
        elif c == '"':
            in_string = True
        elif c == ",":
            j = i + 1
            while j < len(text) and text[j] in " \t\r\n":
                j += 1
            if j < len(text) and text[j] in "]}":
                out[i] = " "
        i += 1
    return "".join(out)


def parse_jsonc(text: str) -> tuple[Any, bool]:
    """(value, is_strict_json)."""
    try:
        return json.loads(text), True
    except json.JSONDecodeError:
        pass
    try:
        return json.loads(_blank_trailing_commas(blank_comments(text))), False
    except json.JSONDecodeError as exc:
        raise JsoncError(f"invalid JSON (line {exc.lineno}): {exc.msg}") from exc


def _skip_ws(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def _string_end(text: str, i: int) -> int:
    """Index just past the string starting at text[i] == '"'."""
    i += 1
    while text[i] != '"':
        i += 2 if text[i] == "\\" else 1
    return i + 1


def _value_end(text: str, i: int) -> int:
    depth = 0
    while i < len(text):
        c = text[i]
        if c == '"':
            i = _string_end(text, i)
            if depth == 0:
                return i
            continue
        if c in "[{":
            depth += 1
        elif c in "]}":
            if depth == 0:
                return i
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == "," and depth == 0:
            return i
        i += 1
    return i


def member_value_start(blanked: str, obj_open: int, key: str) -> int | None:
    """Offset of the value of `key` in the object whose `{` is at `obj_open`."""
    i = _skip_ws(blanked, obj_open + 1)
    while i < len(blanked) and blanked[i] != "}":
        if blanked[i] == ",":
            i = _skip_ws(blanked, i + 1)
            continue
        end = _string_end(blanked, i)
        name = json.loads(blanked[i:end])
        colon = _skip_ws(blanked, end)
        value = _skip_ws(blanked, colon + 1)
        if name == key:
            return value
        i = _skip_ws(blanked, _value_end(blanked, value))
    return None


def insert_first(text: str, container_open: int, entry: str) -> str:
    """Insert `entry` as the first element of the array/object opening at `container_open`."""
    blanked = blank_comments(text)
    closing = "]" if blanked[container_open] == "[" else "}"
    empty = blanked[_skip_ws(blanked, container_open + 1)] == closing
    indent = _indent_of(text, container_open) + "  "
    piece = f"\n{indent}{entry}" + ("" if empty else ",")
    return text[: container_open + 1] + piece + text[container_open + 1 :]


def _indent_of(text: str, offset: int) -> str:
    line_start = text.rfind("\n", 0, offset) + 1
    line = text[line_start:offset]
    return line[: len(line) - len(line.lstrip())]


def top_level_open(text: str) -> int:
    return _skip_ws(blank_comments(text), 0)
