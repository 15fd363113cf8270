"""Writing skill trees in two phases so a whole apply costs one durability barrier.

`stage_tree` writes every byte under temporary names; `commit_trees` flushes them
to disk once (instead of one fsync per file), then renames them into place and
makes the renames durable. A fresh destination is staged as a sibling directory
and renamed whole, so readers never see a half-written skill; an existing
destination is updated file by file (each rename atomic), keeping files the
bundle does not list, as the reference does.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from cmx_core.atomic import fsync_dir, write_file
from cmx_core.bundle import SkillFile
from cmx_core.containment import require_inside


@dataclass
class StagedTree:
    dest: Path
    renames: list[tuple[Path, Path]] = field(default_factory=list)


def _staging_dir(dest: Path) -> Path:
    return dest.with_name(f".{dest.name}.cmx-staging")


def stage_tree(dest: Path, files: Iterable[SkillFile]) -> StagedTree:
    staged = StagedTree(dest)
    if not dest.exists() and not dest.is_symlink():
        root = _staging_dir(dest)
        if root.exists() or root.is_symlink():
            remove_path(root)  # left over from an interrupted run
        made: set[Path] = set()
        for f in files:
            target = root.joinpath(*f.rel_path.split("/"))
            if target.parent not in made:
                target.parent.mkdir(parents=True, exist_ok=True)
                made.add(target.parent)
            write_file(target, f.data, durable=False)
        root.mkdir(parents=True, exist_ok=True)
        staged.renames.append((root, dest))
        return staged
    real_dest = dest.resolve()
    for f in files:
        target = dest.joinpath(*f.rel_path.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        require_inside(target.parent, real_dest, "skill directory")
        if target.is_symlink() or target.is_dir():
            remove_path(target)
        tmp = target.with_name(f".{target.name}.cmx-tmp")
        write_file(tmp, f.data, durable=False)
        staged.renames.append((tmp, target))
    return staged


def commit_trees(trees: Iterable[StagedTree]) -> None:
    """One flush for all staged bytes, then the renames, then the directory entries."""
    pending = [pair for tree in trees for pair in tree.renames]
    if not pending:
        return
    os.sync()
    parents: dict[Path, None] = {}
    for tmp, final in pending:
        final.parent.mkdir(parents=True, exist_ok=True)
        tmp.replace(final)
        parents[final.parent] = None
    for parent in parents:
        fsync_dir(parent)


def write_tree(dest: Path, files: Iterable[SkillFile]) -> None:
    commit_trees([stage_tree(dest, files)])


def remove_path(path: Path) -> None:
    """Delete a file, a directory tree, or a symlink (never what it points to)."""
    if path.is_symlink() or not path.is_dir():
        path.unlink(missing_ok=True)
    else:
        shutil.rmtree(path)
