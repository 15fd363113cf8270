"""Which tree a command acts on: the project (cwd) or the global scope ($HOME).

Global is chosen by `--global`, or automatically when no `.git` exists from
the cwd upwards; `--project` forces the cwd. The same relative paths are
written under either root.
"""

from __future__ import annotations

import enum
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from upskill.errors import UsageError
from upskill.state.lockfile import LOCKFILE_NAME
from upskill.world import World

JOURNAL_NAME = "journal.json"


class ScopeKind(enum.StrEnum):
    PROJECT = "project"
    GLOBAL = "global"


@dataclass(frozen=True)
class Scope:
    kind: ScopeKind
    root: Path
    state: Path  # machine-local journal directory of this scope (`journal_home`)

    @property
    def lockfile(self) -> Path:
        return self.root / LOCKFILE_NAME

    @property
    def journal(self) -> Path:
        """The journal an interrupted run left (`upskill.lifecycle.journal`)."""
        return self.state / JOURNAL_NAME

    @property
    def anchor(self) -> Path | None:
        """What local sources are recorded relative to: the project root (None in the
        global scope, whose lockfile is never shared)."""
        return self.root if self.kind is ScopeKind.PROJECT else None

    @property
    def lock_path(self) -> Path:
        return self.root / ".upskill" / ".lock"


def journal_home(world: World, root: Path) -> Path:
    """Where runs in `root` keep their journal: under the user's state directory, keyed
    by the scope's real path. Outside the project, so a cloned repository cannot carry a
    journal that the next run would replay."""
    key = hashlib.sha256(os.path.realpath(root).encode(errors="surrogateescape")).hexdigest()
    return world.state_dir / "scopes" / key[:32]


def inside_git_repo(cwd: Path) -> bool:
    return any((d / ".git").exists() for d in (cwd, *cwd.parents))


def resolve_scope(world: World, *, project: bool, global_: bool) -> Scope:
    if project and global_:
        raise UsageError("--project and --global are mutually exclusive")
    if global_ or not (project or inside_git_repo(world.cwd)):
        return Scope(ScopeKind.GLOBAL, world.home, journal_home(world, world.home))
    return Scope(ScopeKind.PROJECT, world.cwd, journal_home(world, world.cwd))
