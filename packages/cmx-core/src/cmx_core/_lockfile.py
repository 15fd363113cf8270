"""Lockfile schema (§3): parse strictly, rewrite by load → change one key → save."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from cmx_core._errors import FileFormatError
from cmx_core._jsonfile import read_json_object, write_json
from cmx_core._platforms import ArtifactKind

LOCKFILE_VERSION = 1
_ENTRY_KEYS = ("type", "version", "installed_at", "source", "source_checksum", "installed_checksum")


@dataclass(frozen=True)
class LockSource:
    repo: str
    path: str


@dataclass(frozen=True)
class LockEntry:
    """One tracked artifact. `extra` keeps keys a newer writer added, so we never drop them."""

    kind: ArtifactKind
    version: str | None
    installed_at: str
    source: LockSource
    source_checksum: str
    installed_checksum: str
    extra: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind.value}
        if self.version is not None:
            out["version"] = self.version
        out["installed_at"] = self.installed_at
        out["source"] = {"repo": self.source.repo, "path": self.source.path}
        out["source_checksum"] = self.source_checksum
        out["installed_checksum"] = self.installed_checksum
        for key, value in self.extra.items():
            out.setdefault(key, value)
        return out


@dataclass(frozen=True)
class LockFile:
    packages: Mapping[str, LockEntry] = field(default_factory=lambda: MappingProxyType({}))
    extra: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def with_entry(self, name: str, entry: LockEntry) -> LockFile:
        packages = dict(self.packages)
        packages[name] = entry
        return LockFile(MappingProxyType(packages), self.extra)

    def without(self, name: str) -> LockFile:
        packages = {k: v for k, v in self.packages.items() if k != name}
        return LockFile(MappingProxyType(packages), self.extra)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": LOCKFILE_VERSION}
        out["packages"] = {name: self.packages[name].to_json() for name in sorted(self.packages)}
        for key, value in self.extra.items():
            out.setdefault(key, value)
        return out


def _string(path: Path, where: str, value: object) -> str:
    if type(value) is not str:
        raise FileFormatError(path, f"{where} must be a string")
    return value


def _parse_entry(path: Path, name: str, raw: object) -> LockEntry:
    where = f"packages.{name}"
    if type(raw) is not dict:
        raise FileFormatError(path, f"{where} must be an object")
    kind_raw = raw.get("type")
    kinds = {k.value: k for k in ArtifactKind}
    if type(kind_raw) is not str or kind_raw not in kinds:
        raise FileFormatError(path, f'{where}.type must be "skill" or "agent"')
    version = raw.get("version")
    if version is not None and type(version) is not str:
        raise FileFormatError(path, f"{where}.version must be a string")
    source = raw.get("source")
    if type(source) is not dict:
        raise FileFormatError(path, f"{where}.source must be an object")
    return LockEntry(
        kind=kinds[kind_raw],
        version=version,
        installed_at=_string(path, f"{where}.installed_at", raw.get("installed_at")),
        source=LockSource(
            repo=_string(path, f"{where}.source.repo", source.get("repo")),
            path=_string(path, f"{where}.source.path", source.get("path")),
        ),
        source_checksum=_string(path, f"{where}.source_checksum", raw.get("source_checksum")),
        installed_checksum=_string(
            path, f"{where}.installed_checksum", raw.get("installed_checksum")
        ),
        extra=MappingProxyType({k: v for k, v in raw.items() if k not in _ENTRY_KEYS}),
    )


def parse_lockfile(path: Path, raw: Mapping[str, Any]) -> LockFile:
    version = raw.get("version", LOCKFILE_VERSION)
    if type(version) is not int:
        raise FileFormatError(path, "top-level version must be an integer")
    if version != LOCKFILE_VERSION:
        raise FileFormatError(path, f"unsupported lockfile version {version} (expected 1)")
    packages_raw = raw.get("packages", {})
    if type(packages_raw) is not dict:
        raise FileFormatError(path, "packages must be an object")
    packages = {name: _parse_entry(path, name, entry) for name, entry in packages_raw.items()}
    extra = {k: v for k, v in raw.items() if k not in ("version", "packages")}
    return LockFile(MappingProxyType(packages), MappingProxyType(extra))


def load_lockfile(path: Path) -> LockFile:
    """An absent lockfile is the empty default, never an error."""
    raw = read_json_object(path)
    return LockFile() if raw is None else parse_lockfile(path, raw)


def save_lockfile(path: Path, lock: LockFile) -> None:
    write_json(path, lock.to_json())
