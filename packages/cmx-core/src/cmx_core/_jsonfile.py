"""Reading and writing cmx's JSON files with errors that name the file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cmx_core._atomic import write_atomic
from cmx_core._errors import FileFormatError

MAX_JSON_BYTES = 16 * 1024 * 1024


def read_json_object(path: Path) -> dict[str, Any] | None:
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
        value = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise FileFormatError(path, "not valid UTF-8") from None
    except json.JSONDecodeError as exc:
        raise FileFormatError(
            path, f"malformed JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    if type(value) is not dict:
        raise FileFormatError(path, "expected a JSON object at the top level")
    return value


def write_json(path: Path, value: object) -> None:
    """Pretty JSON (2-space indent, no trailing newline) like the reference, via `<name>.tmp`."""
    text = json.dumps(value, indent=2, ensure_ascii=False)
    write_atomic(path, text.encode("utf-8"), tmp_name=f"{path.name}.tmp")
