"""The one check that keeps symlinks from leading reads or writes out of a tree."""

from __future__ import annotations

from pathlib import Path

from cmx_core._errors import UnsafePathError


def require_inside(path: Path, real_root: Path, what: str) -> None:
    """Raise unless `path`, fully resolved, is `real_root` or below it."""
    target = path.resolve()
    if target != real_root and real_root not in target.parents:
        raise UnsafePathError(path, f"symlink points outside the {what}")
