"""Writing a skill's files into a destination directory, and clearing one safely."""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path

from cmx_core.atomic import write_atomic
from cmx_core.bundle import SkillFile
from cmx_core.containment import require_inside


def write_tree(dest: Path, files: Iterable[SkillFile]) -> None:
    """Each file lands atomically; a symlinked subdirectory may not lead outside `dest`."""
    dest.mkdir(parents=True, exist_ok=True)
    real_dest = dest.resolve()
    for f in files:
        target = dest.joinpath(*f.rel_path.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        require_inside(target.parent, real_dest, "skill directory")
        if target.is_symlink() or target.is_dir():
            remove_path(target)
        write_atomic(target, f.data)


def remove_path(path: Path) -> None:
    """Delete a file, a directory tree, or a symlink (never what it points to)."""
    if path.is_symlink() or not path.is_dir():
        path.unlink(missing_ok=True)
    else:
        shutil.rmtree(path)
