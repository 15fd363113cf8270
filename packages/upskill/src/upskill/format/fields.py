"""Strict typed access to a parsed YAML mapping, with located errors.

Each accessor checks the exact YAML type (`type(x) is int`, so `true` is not
a schema number) and raises a FormatError naming the file and the key's line.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from upskill.errors import FormatError

_UNSET: Any = object()
KIND_PLURALS = ("rules", "skills", "agents")


class Fields:
    def __init__(
        self, data: Mapping[str, Any], path: Path, key_lines: Mapping[str, int], line: int
    ) -> None:
        self.data = data
        self.path = path
        self.key_lines = key_lines
        self.line = line

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key.split(".", 1)[0], self.line)

    def error(self, key: str, message: str) -> FormatError:
        return FormatError(message, path=self.path, line=self.line_of(key))

    def has(self, key: str) -> bool:
        return key in self.data

    def string(self, key: str, *, required: bool = False, value: Any = _UNSET) -> str | None:
        raw = self.data.get(key) if value is _UNSET else value
        if raw is None:
            if required:
                raise self.error(key, f"missing required field '{key}'")
            return None
        if type(raw) is not str:
            raise self.error(key, f"'{key}' must be a string, got {_yaml_type(raw)}")
        if required and not raw.strip():
            raise self.error(key, f"'{key}' must not be empty")
        return raw

    def integer(self, key: str) -> int | None:
        raw = self.data.get(key)
        if raw is None:
            return None
        if type(raw) is not int:
            raise self.error(key, f"'{key}' must be an integer, got {_yaml_type(raw)}")
        return raw

    def mapping(self, key: str, *, value: Any = _UNSET) -> Mapping[str, Any] | None:
        raw = self.data.get(key) if value is _UNSET else value
        if raw is None:
            return None
        if not isinstance(raw, dict):
            raise self.error(key, f"'{key}' must be a mapping, got {_yaml_type(raw)}")
        for sub in raw:
            if type(sub) is not str:
                raise self.error(key, f"'{key}' keys must be strings, got {_yaml_type(sub)}")
        return raw

    def kind_map(self, key: str) -> Mapping[str, Any] | None:
        """A map keyed by item kind plurals (`requires:`, bundle `items:`)."""
        raw = self.mapping(key)
        if raw is None:
            return None
        unknown = sorted(set(raw) - set(KIND_PLURALS))
        if unknown:
            raise self.error(
                key, f"'{key}' has unknown key(s): {', '.join(unknown)} (rules, skills, agents)"
            )
        return raw

    def string_list(self, key: str, *, value: Any = _UNSET) -> tuple[str, ...] | None:
        raw = self.data.get(key) if value is _UNSET else value
        if raw is None:
            return None
        if not isinstance(raw, list):
            raise self.error(key, f"'{key}' must be a list of strings, got {_yaml_type(raw)}")
        for entry in raw:
            if type(entry) is not str or not entry.strip():
                raise self.error(key, f"'{key}' entries must be non-empty strings, got {entry!r}")
        return tuple(raw)


def _yaml_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__
