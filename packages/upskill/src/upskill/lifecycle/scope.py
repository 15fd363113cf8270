"""Which tree a command acts on: the project (cwd) or the global scope ($HOME).

Global is chosen by `--global`, or automatically when no `.git` exists from
the cwd upwards; `--project` forces the cwd. The same relative paths are
written under either root.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path

from upskill.errors import UsageError
from upskill.state.lockfile import LOCKFILE_NAME
from upskill.world import World


class ScopeKind(enum.StrEnum):
    PROJECT = "project"
    GLOBAL = "global"


@dataclass(frozen=True)
class Scope:
    kind: ScopeKind
    root: Path

    @property
    def lockfile(self) -> Path:
        return self.root / LOCKFILE_NAME

    @property
    def lock_path(self) -> Path:
        return self.root / ".upskill" / ".lock"


def inside_git_repo(cwd: Path) -> bool:
    return any((d / ".git").exists() for d in (cwd, *cwd.parents))


def resolve_scope(world: World, *, project: bool, global_: bool) -> Scope:
    if project and global_:
        raise UsageError("--project and --global are mutually exclusive")
    if global_:
        return Scope(ScopeKind.GLOBAL, world.home)
    if project or inside_git_repo(world.cwd):
        return Scope(ScopeKind.PROJECT, world.cwd)
    return Scope(ScopeKind.GLOBAL, world.home)
