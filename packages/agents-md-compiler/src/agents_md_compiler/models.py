"""Immutable values passed between parse, render, lock, classify and apply.

No in-package imports: every other module depends on these shapes, never the
reverse, so the data flow stays one-directional.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

DISTRIBUTION_DIRECTORY = "agents-md-compiler"
IDENTIFIER_RE = re.compile(r"\A[a-z][a-z0-9-]{0,63}\Z")
SHA256_RE = re.compile(r"\A[0-9a-f]{64}\Z")
MIB = 1024 * 1024


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class BundleLimits:
    """Size limits; deliberately not exposed as CLI flags."""

    max_manifest_bytes: int = MIB
    max_modules: int = 256
    max_source_bytes: int = 4 * MIB
    max_total_bytes: int = 32 * MIB
    max_receipt_bytes: int = MIB
    max_probe_output_bytes: int = 32 * MIB


DEFAULT_LIMITS = BundleLimits()


@dataclass(frozen=True)
class PathPair:
    """What the user wrote (lexical) and the absolute normalized path (resolved)."""

    lexical: str
    resolved: str

    def as_json(self) -> dict[str, str]:
        return {"lexical": self.lexical, "resolved": self.resolved}


@dataclass(frozen=True)
class ModuleSpec:
    id: str
    source: str
    resolved_source: str


@dataclass(frozen=True)
class Manifest:
    path: PathPair
    sha256: str
    bundle_id: str
    default_target: str
    default_target_resolved: str
    modules: tuple[ModuleSpec, ...]


@dataclass(frozen=True)
class SourceSnapshot:
    """One source read exactly once; hash, lock and render all use these bytes."""

    spec: ModuleSpec
    content: bytes
    sha256: str

    @property
    def size_bytes(self) -> int:
        return len(self.content)


@dataclass(frozen=True)
class LockedModule:
    id: str
    sha256: str
    size_bytes: int
    source: str

    def identity(self) -> dict[str, object]:
        return {"id": self.id, "sha256": self.sha256, "size_bytes": self.size_bytes}


@dataclass(frozen=True)
class Lock:
    """format_version 2 stores `source` as written; format 1 an absolute path."""

    format_version: int
    bundle_id: str
    manifest_sha256: str
    modules: tuple[LockedModule, ...]


@dataclass(frozen=True)
class CompiledBundle:
    """Manifest + snapshots + the fresh lock and render derived from them."""

    manifest: Manifest
    sources: tuple[SourceSnapshot, ...]
    lock: Lock
    lock_bytes: bytes
    lock_sha256: str
    rendered: bytes
    rendered_sha256: str

    def module_identities(self) -> list[dict[str, object]]:
        return [m.identity() for m in self.lock.modules]
