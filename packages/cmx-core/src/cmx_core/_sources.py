"""`sources.json` registration of `bundled:<name>` (§8.2), keeping every other entry."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cmx_core._errors import FileFormatError
from cmx_core._jsonfile import read_json_object, write_json


def bundled_source_name(tool_name: str) -> str:
    return f"bundled:{tool_name}"


def _load(path: Path) -> dict[str, Any]:
    raw = read_json_object(path)
    if raw is None:
        return {"version": 1, "sources": {}}
    version = raw.get("version", 1)
    if type(version) is not int or version != 1:
        raise FileFormatError(path, f"unsupported sources version {version!r} (expected 1)")
    sources = raw.setdefault("sources", {})
    if not isinstance(sources, dict):
        raise FileFormatError(path, "sources must be an object")
    for name, entry in sources.items():
        if not isinstance(entry, dict):
            raise FileFormatError(path, f"sources.{name} must be an object")
    return raw


def registered_path(path: Path, source_name: str) -> tuple[bool, Path | None]:
    """Whether `source_name` is registered, and the local path it points at (if any)."""
    raw = _load(path)
    entry = raw["sources"].get(source_name)
    if entry is None:
        return False, None
    local = entry.get("path")
    return True, Path(local) if type(local) is str else None


def register(
    path: Path, source_name: str, materialized: Path, timestamp: str, *, replace: bool
) -> None:
    """Skills insert-if-absent (an existing registration is left alone); agents replace."""
    raw = _load(path)
    if source_name in raw["sources"] and not replace:
        return
    raw["sources"][source_name] = {
        "type": "local",
        "path": str(materialized),
        "last_updated": timestamp,
    }
    raw["sources"] = dict(sorted(raw["sources"].items()))
    write_json(path, raw)


def unregister(path: Path, source_name: str) -> bool:
    raw = _load(path)
    if source_name not in raw["sources"]:
        return False
    del raw["sources"][source_name]
    write_json(path, raw)
    return True
