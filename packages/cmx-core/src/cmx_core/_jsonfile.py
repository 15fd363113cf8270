"""Reading and writing cmx's JSON files with errors that name the file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cmx_core._atomic import write_atomic
from cmx_core._errors import FileFormatError

MAX_JSON_BYTES = 16 * 1024 * 1024


class JsonObject(dict[str, Any]):
    """A parsed object that remembers keys it held twice (the last value is kept).

    serde rejects a repeated struct field but lets a map key repeat (last wins),
    so only the reader that knows which objects are structs can decide.
    """

    duplicates: frozenset[str] = frozenset()


def _object(pairs: list[tuple[str, Any]]) -> JsonObject:
    value = JsonObject(pairs)
    if len(value) != len(pairs):
        keys = [k for k, _ in pairs]
        value.duplicates = frozenset(k for k in keys if keys.count(k) > 1)
    return value


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _has_lone_surrogate(value: Any) -> bool:
    """serde_json refuses a `\\ud800`-style escape that pairs with nothing."""
    if isinstance(value, str):
        return any("\ud800" <= ch <= "\udfff" for ch in value)
    if isinstance(value, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_lone_surrogate(v) for v in value)
    return False


def read_json_object(path: Path) -> JsonObject | None:
    """Parse `path` as a JSON object; None when the file does not exist."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_JSON_BYTES + 1)
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise FileFormatError(path, "is a directory, expected a JSON file") from None
    if len(raw) > MAX_JSON_BYTES:
        raise FileFormatError(path, f"file is larger than {MAX_JSON_BYTES} bytes")
    try:
        value = json.loads(
            raw.decode("utf-8"), object_pairs_hook=_object, parse_constant=_reject_constant
        )
    except UnicodeDecodeError:
        raise FileFormatError(path, "not valid UTF-8") from None
    except json.JSONDecodeError as exc:
        raise FileFormatError(
            path, f"malformed JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except ValueError as exc:
        raise FileFormatError(path, f"malformed JSON: {exc}") from None
    if _has_lone_surrogate(value):
        raise FileFormatError(path, "malformed JSON: unpaired surrogate in a \\u escape")
    if not isinstance(value, JsonObject):
        raise FileFormatError(path, "expected a JSON object at the top level")
    return value


def render_json(value: object) -> str:
    """serde_json's pretty form: 2-space indent, `": "`, raw non-ASCII, no trailing newline."""
    return json.dumps(value, indent=2, ensure_ascii=False)


def write_json(path: Path, value: object) -> None:
    """Pretty JSON like the reference, written atomically via `<name>.tmp`."""
    write_atomic(path, render_json(value).encode("utf-8"), tmp_name=f"{path.name}.tmp")
