"""§5: the cross-port checksum. Filter, `/`-normalise, byte-sort, hash path then content."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from cmx_core._treewalk import lossy_key, lossy_text, raw_bytes, walk_files

TRANSIENT_NAMES = frozenset({"node_modules", "__pycache__", ".git", ".DS_Store"})


def is_excluded_component(component: str) -> bool:
    """Hidden, transient, or `*.pyc` (ASCII case-insensitive, like Rust's
    `eq_ignore_ascii_case` on the extension)."""
    suffix = component[-4:]
    return (
        component.startswith(".")
        or component in TRANSIENT_NAMES
        or (suffix.isascii() and suffix.lower() == ".pyc")
    )


def is_canonical(rel_path: str) -> bool:
    """Whether a `/`-separated path takes part in the checksum (§5.1)."""
    return not any(is_excluded_component(lossy_text(part)) for part in rel_path.split("/"))


def _order(rel_path: str) -> tuple[bytes, bytes]:
    # Names that differ only in invalid UTF-8 share a lossy key; the raw bytes
    # break that tie deterministically (the reference keeps directory order).
    return lossy_key(rel_path), raw_bytes(rel_path)


def canonical_order(paths: Iterable[str]) -> list[str]:
    """Canonical paths in hash order: plain byte order of the `/`-joined string (§11.4)."""
    return sorted((p for p in paths if is_canonical(p)), key=_order)


def checksum_pairs(pairs: Iterable[tuple[str, bytes]]) -> str:
    """Checksum of `(rel_path, bytes)` pairs; non-canonical pairs are ignored.

    A non-UTF-8 name is hashed as the reference hashes it: its lossy UTF-8 text.
    """
    by_path = {path: data for path, data in pairs if is_canonical(path)}
    digest = hashlib.sha256()
    for path in sorted(by_path, key=_order):
        digest.update(lossy_key(path))
        digest.update(by_path[path])
    return "sha256:" + digest.hexdigest()


def checksum_bytes(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def read_canonical_tree(root: Path) -> dict[str, bytes]:
    """The canonical files under an installed skill dir, by `/`-joined relative path.

    Excluded names are not descended into, mirroring the reference walk; symlinks
    follow the shared tree-walk rules (`_treewalk`).
    """
    files = walk_files(root, skip_name=is_excluded_component, what="installed skill directory")
    return {f.rel_path: f.path.read_bytes() for f in files}


def checksum_dir(root: Path) -> str:
    return checksum_pairs(read_canonical_tree(root).items())


def checksum_installed(path: Path) -> str:
    """Checksum of an installed artifact: a skill directory or a single agent file."""
    return checksum_dir(path) if path.is_dir() else checksum_bytes(path.read_bytes())
