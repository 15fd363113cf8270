"""Typed errors; each carries the exit code a CLI embedding cmx-core should use."""

from __future__ import annotations

from pathlib import Path


class CmxError(Exception):
    """Base class: every failure cmx-core raises on purpose."""

    exit_code = 1


class InvalidInputError(CmxError):
    """The embedder passed something unusable (bad name, bad path, no SKILL.md)."""

    exit_code = 2


class MissingSkillMdError(InvalidInputError):
    def __init__(self, tool: str) -> None:
        super().__init__(f"Bundled skill for '{tool}' has no root SKILL.md")


class FileFormatError(CmxError):
    """A config or lockfile on disk is malformed; the message names the file."""

    exit_code = 3

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


class UnsafePathError(CmxError):
    """A path would escape the directory it belongs to (symlink or `..`)."""

    exit_code = 3

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path


class BlockedPlanError(CmxError):
    """The plan holds a RefuseNewer target; only force may override it."""

    exit_code = 4

    def __init__(self, tool: str) -> None:
        super().__init__(f"Install plan for '{tool}' is blocked. Run with force=true to override.")


class ParityError(CmxError):
    """The bundle passed to apply() is not the one plan() saw."""

    exit_code = 5

    def __init__(self, tool: str) -> None:
        super().__init__(
            f"Parity check failed for '{tool}': "
            "the BundledSkill has changed since plan() was called."
        )


class PlanMismatchError(CmxError):
    """An agent plan was applied to a skill bundle or vice versa."""

    exit_code = 5


class LockHeldError(CmxError):
    """Another writer holds this scope's advisory lock."""

    exit_code = 6

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path}: another cmx-core writer holds the lock for this scope")
        self.path = path
