"""Which tree a command acts on: the project (cwd) or the global scope ($HOME).

Global is chosen by `--global`, or automatically when no `.git` exists from
the cwd upwards; `--project` forces the cwd. The same relative paths are
written under either root.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from upskill.errors import UsageError
from upskill.state.lockfile import LOCKFILE_NAME


class ScopeKind(enum.StrEnum):
    PROJECT = "project"
    GLOBAL = "global"


@dataclass(frozen=True)
class World:
    """The side-effect seams commands read: cwd, home, environment."""

    cwd: Path
    home: Path
    env: Mapping[str, str]

    @staticmethod
    def current() -> World:
        env = dict(os.environ)
        home = env.get("HOME") or env.get("USERPROFILE") or str(Path.home())
        return World(Path.cwd(), Path(home), env)


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
