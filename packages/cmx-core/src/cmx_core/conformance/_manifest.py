"""Loading fixture manifests strictly: an unknown field is a failure, never ignored."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1
_CASE_KEYS = frozenset({"name", "description", "input", "expected"})


class FixtureError(Exception):
    """The fixture itself cannot be executed (bad JSON, unknown or missing field)."""


@dataclass(frozen=True)
class Case:
    category: str
    name: str
    category_dir: Path
    input: Mapping[str, Any]
    expected: Mapping[str, Any]

    @property
    def label(self) -> str:
        return f"{self.category}/{self.name}"


@dataclass(frozen=True)
class Fields:
    """The exact key sets a category accepts; `optional` keys may be absent."""

    input: frozenset[str]
    expected: frozenset[str]
    optional_input: frozenset[str] = frozenset()
    optional_expected: frozenset[str] = frozenset()


def load_cases(category_dir: Path) -> list[Case]:
    path = category_dir / "manifest.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FixtureError(f"{path}: missing manifest.json") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FixtureError(f"{path}: malformed JSON ({exc})") from None
    if type(raw) is not dict or set(raw) != {"schema_version", "cases"}:
        raise FixtureError(f"{path}: expected exactly schema_version and cases")
    if raw["schema_version"] != SCHEMA_VERSION:
        raise FixtureError(f"{path}: unsupported schema_version {raw['schema_version']!r}")
    if type(raw["cases"]) is not list:
        raise FixtureError(f"{path}: cases must be a list")
    return [_case(category_dir, path, i, item) for i, item in enumerate(raw["cases"])]


def _case(category_dir: Path, path: Path, index: int, item: object) -> Case:
    if type(item) is not dict:
        raise FixtureError(f"{path}: case #{index} is not an object")
    name = item.get("name")
    if type(name) is not str or not name:
        raise FixtureError(f"{path}: case #{index} has no name")
    unknown = set(item) - _CASE_KEYS
    if unknown or "input" not in item or "expected" not in item:
        raise FixtureError(f"{path}: case {name!r} has keys {sorted(item)}")
    if type(item["input"]) is not dict or type(item["expected"]) is not dict:
        raise FixtureError(f"{path}: case {name!r} input/expected must be objects")
    return Case(category_dir.name, name, category_dir, item["input"], item["expected"])


def port_view(case: Case) -> Case:
    """The case as ctxkit must answer it.

    A deliberate deviation keeps the reference's answer in `expected` and adds
    `deviation` (an id listed in the package README) and `port`, ctxkit's answer,
    which then replaces the reference's for the comparison.
    """
    if "deviation" not in case.expected and "port" not in case.expected:
        return case
    deviation, port = case.expected.get("deviation"), case.expected.get("port")
    if type(deviation) is not str or not deviation or type(port) is not dict:
        raise FixtureError("a deviation needs a non-empty id and a port object")
    return replace(case, expected=port)


def check_fields(case: Case, fields: Fields) -> None:
    """Refuse a case whose fields the runner does not know how to execute."""
    for section, given, required, optional in (
        ("input", case.input, fields.input, fields.optional_input),
        ("expected", case.expected, fields.expected, fields.optional_expected),
    ):
        unknown = set(given) - required - optional
        missing = required - set(given)
        if unknown:
            raise FixtureError(f"unknown {section} field(s) {sorted(unknown)}")
        if missing:
            raise FixtureError(f"missing {section} field(s) {sorted(missing)}")


def typed(case: Case, section: Mapping[str, Any], key: str, kind: type) -> Any:
    value = section[key]
    if type(value) is not kind:
        raise FixtureError(f"field {key!r} must be {kind.__name__}, got {type(value).__name__}")
    return value


def optional_str(section: Mapping[str, Any], key: str) -> str | None:
    value = section[key]
    if value is not None and type(value) is not str:
        raise FixtureError(f"field {key!r} must be a string or null")
    return value


def fixture_path(case: Case, relative: str) -> Path:
    """Manifest paths are relative to the category directory and may not leave it."""
    target = (case.category_dir / relative).resolve()
    root = case.category_dir.resolve()
    if root not in target.parents:
        raise FixtureError(f"path {relative!r} leaves the category directory")
    return target
