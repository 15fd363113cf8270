"""Lockfile schema (§3): parse as the reference's serde types do, rewrite by
load → change one key → save.

Parity with the reference (conformance/cmx-core-extra/lockfile-roundtrip): the
top-level `version` and `packages` are required, every entry field but `version`
is required, a repeated field is an error while a repeated package name keeps the
last entry, and unknown keys are ignored on read and dropped on rewrite. One
deliberate difference: only `version: 1` is accepted (README, "Deliberate
deviations").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from cmx_core._errors import FileFormatError
from cmx_core._jsonfile import JsonObject, read_json_object, write_json
from cmx_core._platforms import ArtifactKind

LOCKFILE_VERSION = 1
_ENTRY_REQUIRED = ("installed_at", "source", "source_checksum", "installed_checksum")


@dataclass(frozen=True)
class LockSource:
    repo: str
    path: str


@dataclass(frozen=True)
class LockEntry:
    """One tracked artifact, in the reference's field order."""

    kind: ArtifactKind
    version: str | None
    installed_at: str
    source: LockSource
    source_checksum: str
    installed_checksum: str

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind.value}
        if self.version is not None:
            out["version"] = self.version
        out["installed_at"] = self.installed_at
        out["source"] = {"repo": self.source.repo, "path": self.source.path}
        out["source_checksum"] = self.source_checksum
        out["installed_checksum"] = self.installed_checksum
        return out


@dataclass(frozen=True)
class LockFile:
    packages: Mapping[str, LockEntry] = field(default_factory=lambda: MappingProxyType({}))

    def with_entry(self, name: str, entry: LockEntry) -> LockFile:
        packages = dict(self.packages)
        packages[name] = entry
        return LockFile(MappingProxyType(packages))

    def without(self, name: str) -> LockFile:
        return LockFile(MappingProxyType({k: v for k, v in self.packages.items() if k != name}))

    def to_json(self) -> dict[str, Any]:
        return {
            "version": LOCKFILE_VERSION,
            "packages": {name: self.packages[name].to_json() for name in sorted(self.packages)},
        }


def _struct(path: Path, where: str, raw: object) -> JsonObject:
    """An object read as a serde struct: a repeated field is an error."""
    if not isinstance(raw, JsonObject):
        raise FileFormatError(path, f"{where} must be an object")
    if raw.duplicates:
        raise FileFormatError(path, f"{where}: duplicate field {sorted(raw.duplicates)[0]!r}")
    return raw


def _require(path: Path, where: str, raw: JsonObject, keys: tuple[str, ...]) -> None:
    missing = [key for key in keys if key not in raw]
    if missing:
        raise FileFormatError(path, f"{where}: missing field {missing[0]!r}")


def _string(path: Path, where: str, value: object) -> str:
    if type(value) is not str:
        raise FileFormatError(path, f"{where} must be a string")
    return value


def _parse_entry(path: Path, name: str, raw: object) -> LockEntry:
    where = f"packages.{name}"
    entry = _struct(path, where, raw)
    kinds = {k.value: k for k in ArtifactKind}
    if entry.get("type") not in kinds:
        raise FileFormatError(path, f'{where}.type must be "skill" or "agent"')
    version = entry.get("version")
    if version is not None and type(version) is not str:
        raise FileFormatError(path, f"{where}.version must be a string")
    _require(
        path, where, entry, ("installed_at", "source", "source_checksum", "installed_checksum")
    )
    source = _struct(path, f"{where}.source", entry["source"])
    _require(path, f"{where}.source", source, ("repo", "path"))
    return LockEntry(
        kind=kinds[entry["type"]],
        version=version,
        installed_at=_string(path, f"{where}.installed_at", entry["installed_at"]),
        source=LockSource(
            repo=_string(path, f"{where}.source.repo", source["repo"]),
            path=_string(path, f"{where}.source.path", source["path"]),
        ),
        source_checksum=_string(path, f"{where}.source_checksum", entry["source_checksum"]),
        installed_checksum=_string(
            path, f"{where}.installed_checksum", entry["installed_checksum"]
        ),
    )


def parse_lockfile(path: Path, raw: JsonObject) -> LockFile:
    top = _struct(path, "lockfile", raw)
    _require(path, "lockfile", top, ("version", "packages"))
    version = top["version"]
    if type(version) is not int:
        raise FileFormatError(path, "top-level version must be an integer")
    if version != LOCKFILE_VERSION:
        raise FileFormatError(path, f"unsupported lockfile version {version} (expected 1)")
    packages_raw = top["packages"]
    if not isinstance(packages_raw, dict):
        raise FileFormatError(path, "packages must be an object")
    packages = {name: _parse_entry(path, name, entry) for name, entry in packages_raw.items()}
    return LockFile(MappingProxyType(packages))


def load_lockfile(path: Path) -> LockFile:
    """An absent lockfile is the empty default, never an error."""
    raw = read_json_object(path)
    return LockFile() if raw is None else parse_lockfile(path, raw)


def save_lockfile(path: Path, lock: LockFile) -> None:
    write_json(path, lock.to_json())
