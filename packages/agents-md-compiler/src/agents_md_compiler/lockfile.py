"""Canonical lock bytes (format 2), the strict parser (formats 1 and 2), staleness."""

from __future__ import annotations

import json

from agents_md_compiler.errors import LockError
from agents_md_compiler.fileio import ReadProblem, read_regular
from agents_md_compiler.models import (
    IDENTIFIER_RE,
    MIB,
    SHA256_RE,
    Lock,
    LockedModule,
    Manifest,
    PathPair,
    SourceSnapshot,
)

LOCK_FORMAT = 2
TOP_KEYS = frozenset({"bundle_id", "format_version", "manifest_sha256", "modules"})
MODULE_KEYS = {
    1: frozenset({"id", "resolved_source", "sha256", "size_bytes"}),
    2: frozenset({"id", "sha256", "size_bytes", "source"}),
}
MAX_LOCK_BYTES = 16 * MIB


def build_lock(manifest: Manifest, sources: tuple[SourceSnapshot, ...]) -> Lock:
    modules = tuple(LockedModule(s.spec.id, s.sha256, s.size_bytes, s.spec.source) for s in sources)
    return Lock(LOCK_FORMAT, manifest.bundle_id, manifest.sha256, modules)


def canonical_json(document: object) -> bytes:
    """The one serialization shared by locks and receipts."""
    return (json.dumps(document, indent=2, sort_keys=True, ensure_ascii=True) + "\n").encode()


def serialize_lock(lock: Lock) -> bytes:
    path_key = "source" if lock.format_version == 2 else "resolved_source"
    modules = [
        {"id": m.id, "sha256": m.sha256, "size_bytes": m.size_bytes, path_key: m.source}
        for m in lock.modules
    ]
    return canonical_json(
        {
            "bundle_id": lock.bundle_id,
            "format_version": lock.format_version,
            "manifest_sha256": lock.manifest_sha256,
            "modules": modules,
        }
    )


def read_lock_bytes(path: PathPair) -> bytes | None:
    """None when absent; INVALID_LOCK for a symlink or non-regular file."""
    try:
        return read_regular(path.resolved, MAX_LOCK_BYTES).data
    except ReadProblem as exc:
        if str(exc) == "does not exist":
            return None
        raise _error(path, f"lock {exc}") from None


def parse_lock(data: bytes, path: PathPair) -> Lock:
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise _error(path, f"lock is not valid JSON: {exc}") from None
    except RecursionError:
        raise _error(path, "lock is not valid JSON: nested too deeply") from None
    if not isinstance(doc, dict):
        raise _error(path, "lock must be a JSON object")
    unknown = sorted(set(doc) - TOP_KEYS)
    if unknown:
        raise _error(path, f"lock has unknown key(s): {', '.join(unknown)}")
    missing = sorted(TOP_KEYS - set(doc))
    if missing:
        raise _error(path, f"lock is missing key(s): {', '.join(missing)}")
    version = doc["format_version"]
    if type(version) is not int or version not in MODULE_KEYS:
        raise _error(path, f"unsupported lock format_version {version!r}")
    bundle_id = _string(doc["bundle_id"], "bundle_id", path)
    if not IDENTIFIER_RE.match(bundle_id):
        raise _error(path, "lock bundle_id is not a valid identifier")
    manifest_sha = _digest(doc["manifest_sha256"], "manifest_sha256", path)
    raw_modules = doc["modules"]
    if not isinstance(raw_modules, list) or not raw_modules:
        raise _error(path, "lock modules must be a non-empty array")
    modules = tuple(_module(entry, index, version, path) for index, entry in enumerate(raw_modules))
    return Lock(version, bundle_id, manifest_sha, modules)


def staleness(on_disk: bytes, parsed: Lock, fresh: Lock, fresh_bytes: bytes) -> str | None:
    """Why the on-disk lock differs from the fresh one, or None when byte-identical."""
    checks = (
        (parsed.format_version != fresh.format_version, "lock format is not current"),
        (parsed.bundle_id != fresh.bundle_id, "lock bundle_id differs from the manifest"),
        (parsed.manifest_sha256 != fresh.manifest_sha256, "manifest bytes differ from the lock"),
        (
            [m.id for m in parsed.modules] != [m.id for m in fresh.modules],
            "module ids or order differ from the lock",
        ),
        (parsed.modules != fresh.modules, "source bytes or paths differ from the lock"),
        (on_disk != fresh_bytes, "lock bytes are not canonical"),
    )
    for failed, reason in checks:
        if failed:
            return reason
    return None


def _module(entry: object, index: int, version: int, path: PathPair) -> LockedModule:
    where = f"modules[{index}]"
    if not isinstance(entry, dict):
        raise _error(path, f"lock {where} must be an object")
    keys = MODULE_KEYS[version]
    if set(entry) != keys:
        raise _error(path, f"lock {where} keys must be exactly {', '.join(sorted(keys))}")
    module_id = _string(entry["id"], f"{where}.id", path)
    if not IDENTIFIER_RE.match(module_id):
        raise _error(path, f"lock {where}.id is not a valid identifier")
    size = entry["size_bytes"]
    if type(size) is not int or size < 1:
        raise _error(path, f"lock {where}.size_bytes must be an integer >= 1")
    source_key = "source" if version == 2 else "resolved_source"
    source = _string(entry[source_key], f"{where}.{source_key}", path)
    if not source:
        raise _error(path, f"lock {where}.{source_key} must not be empty")
    digest = _digest(entry["sha256"], f"{where}.sha256", path)
    return LockedModule(module_id, digest, size, source)


def _string(value: object, label: str, path: PathPair) -> str:
    if type(value) is not str:
        raise _error(path, f"lock {label} must be a string")
    return value


def _digest(value: object, label: str, path: PathPair) -> str:
    text = _string(value, label, path)
    if not SHA256_RE.match(text):
        raise _error(path, f"lock {label} is not a lowercase sha256 hex digest")
    return text


def _error(path: PathPair, message: str) -> LockError:
    return LockError(message, lexical=path.lexical, resolved=path.resolved)
