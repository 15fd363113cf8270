"""§5: the cross-port checksum. Filter, `/`-normalise, byte-sort, hash path then content."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

from cmx_core._containment import require_inside

TRANSIENT_NAMES = frozenset({"node_modules", "__pycache__", ".git", ".DS_Store"})


def is_excluded_component(component: str) -> bool:
    return (
        component.startswith(".")
        or component in TRANSIENT_NAMES
        or component.lower().endswith(".pyc")
    )


def is_canonical(rel_path: str) -> bool:
    """Whether a `/`-separated path takes part in the checksum (§5.1)."""
    return not any(is_excluded_component(part) for part in rel_path.split("/"))


def _key(rel_path: str) -> bytes:
    return rel_path.encode("utf-8", "surrogateescape")


def canonical_order(paths: Iterable[str]) -> list[str]:
    """Canonical paths in hash order: plain byte order of the `/`-joined string (§11.4)."""
    return sorted((p for p in paths if is_canonical(p)), key=_key)


def checksum_pairs(pairs: Iterable[tuple[str, bytes]]) -> str:
    """Checksum of `(rel_path, bytes)` pairs; non-canonical pairs are ignored."""
    by_path = {path: data for path, data in pairs if is_canonical(path)}
    digest = hashlib.sha256()
    for path in sorted(by_path, key=_key):
        digest.update(_key(path))
        digest.update(by_path[path])
    return "sha256:" + digest.hexdigest()


def checksum_bytes(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def read_canonical_tree(root: Path) -> dict[str, bytes]:
    """The canonical files under an installed skill dir, by `/`-joined relative path.

    Excluded names are not descended into, mirroring the reference walk. A symlink
    is followed only while its target stays inside `root`; otherwise it is refused.
    """
    real_root = root.resolve()
    found: dict[str, bytes] = {}
    # Each pending dir carries its resolved ancestors, so a symlink cycle stops while
    # an alias of a sibling directory is still hashed under both names.
    pending: list[tuple[Path, frozenset[Path]]] = [(root, frozenset({real_root}))]
    while pending:
        directory, ancestors = pending.pop()
        with os.scandir(directory) as entries:
            for entry in entries:
                if is_excluded_component(entry.name):
                    continue
                path = Path(entry.path)
                if entry.is_symlink():
                    require_inside(path, real_root, "installed skill directory")
                if entry.is_dir():
                    real = path.resolve()
                    if real not in ancestors:
                        pending.append((path, ancestors | {real}))
                elif entry.is_file():
                    found[path.relative_to(root).as_posix()] = path.read_bytes()
    return found


def checksum_dir(root: Path) -> str:
    return checksum_pairs(read_canonical_tree(root).items())


def checksum_installed(path: Path) -> str:
    """Checksum of an installed artifact: a skill directory or a single agent file."""
    return checksum_dir(path) if path.is_dir() else checksum_bytes(path.read_bytes())
