"""Writing skill trees in two phases: stage everything, then rename into place.

`stage_tree` writes every byte under temporary names; `commit_trees` renames them
into place and fsyncs the parent directories so the renames are durable. Skill
file contents are not fsynced one by one (that cost 5-8x a plain copy) and no
machine-wide `sync()` is issued (an embedded library must not stall the host's
other I/O): the files are reproducible from the bundle, and after a power loss
a short file fails its lockfile checksum, so `status` reports drift and the
next `apply` repairs it. Lockfiles and `sources.json` are fsynced before their
rename. A fresh destination is staged as a sibling directory
and renamed whole, so readers never see a half-written skill; an existing
destination is updated file by file (each rename atomic), keeping files the
bundle does not list, as the reference does.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from cmx_core._atomic import fsync_dir, write_file
from cmx_core._bundle import SkillFile
from cmx_core._containment import require_inside


@dataclass
class StagedTree:
    dest: Path
    renames: list[tuple[Path, Path]] = field(default_factory=list)
    replaces: bool = False
    """Whether commit removes the existing destination before renaming the new one in."""


def _staging_dir(dest: Path) -> Path:
    return dest.with_name(f".{dest.name}.cmx-staging")


def stage_tree(dest: Path, files: Iterable[SkillFile], *, replace: bool = False) -> StagedTree:
    """Write `files` under temporary names; with `replace`, as a whole new directory."""
    exists = dest.exists() or dest.is_symlink()
    staged = StagedTree(dest, replaces=replace and exists)
    try:
        _stage_into(staged, files, whole=replace or not exists)
    except BaseException:
        for tmp, _final in staged.renames:
            remove_path(tmp)
        if replace or not exists:
            remove_path(_staging_dir(dest))
        raise
    return staged


def _stage_into(staged: StagedTree, files: Iterable[SkillFile], *, whole: bool) -> None:
    dest = staged.dest
    if whole:
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
        return
    real_dest = dest.resolve()
    for f in files:
        target = dest.joinpath(*f.rel_path.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        require_inside(target.parent, real_dest, "skill directory")
        tmp = target.with_name(f".{target.name}.cmx-tmp")
        staged.renames.append((tmp, target))
        write_file(tmp, f.data, durable=False)


def commit_trees(trees: Iterable[StagedTree]) -> None:
    """Rename every staged file into place, then make the directory entries durable."""
    staged = list(trees)
    pending = [pair for tree in staged for pair in tree.renames]
    if not pending:
        return
    for tree in staged:
        if tree.replaces:
            remove_path(tree.dest)
    parents: dict[Path, None] = {}
    for tmp, final in pending:
        final.parent.mkdir(parents=True, exist_ok=True)
        if final.is_symlink() or (final.is_dir() and not tmp.is_dir()):
            remove_path(final)  # a bundle file replaces a local link or directory
        tmp.replace(final)
        parents[final.parent] = None
    for parent in parents:
        fsync_dir(parent)


def remove_path(path: Path) -> None:
    """Delete a file, a directory tree, or a symlink (never what it points to)."""
    if not path.exists() and not path.is_symlink():
        return
    if path.is_symlink() or not path.is_dir():
        path.unlink(missing_ok=True)
    else:
        shutil.rmtree(path)
