"""The per-target decisions of §7 as closed, immutable variants."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True)
class _Action:
    kind: ClassVar[str]
    will_write: ClassVar[bool] = False
    is_blocked: ClassVar[bool] = False

    @property
    def from_version(self) -> str | None:
        return None

    @property
    def installed_version(self) -> str | None:
        return None

    def to_json(self) -> dict[str, Any]:
        """The shape the conformance reports use for an action."""
        return {
            "kind": self.kind,
            "from": self.from_version,
            "installed": self.installed_version,
            "will_write": self.will_write,
            "blocked": self.is_blocked,
        }


@dataclass(frozen=True)
class Install(_Action):
    kind: ClassVar[str] = "install"
    will_write: ClassVar[bool] = True

    def __str__(self) -> str:
        return "install"


@dataclass(frozen=True)
class Update(_Action):
    """`previous` is None when the lock entry carried no version."""

    previous: str | None
    kind: ClassVar[str] = "update"
    will_write: ClassVar[bool] = True

    @property
    def from_version(self) -> str | None:
        return self.previous

    def __str__(self) -> str:
        return f"update from {self.previous if self.previous is not None else '?'}"


@dataclass(frozen=True)
class Skip(_Action):
    kind: ClassVar[str] = "skip"

    def __str__(self) -> str:
        return "skip (up to date)"


@dataclass(frozen=True)
class DriftedSkip(_Action):
    """Same version, different bytes on disk: the user's edits are kept."""

    installed: str
    kind: ClassVar[str] = "drifted-skip"

    @property
    def installed_version(self) -> str | None:
        return self.installed

    def __str__(self) -> str:
        return f"skip (drifted from {self.installed})"


@dataclass(frozen=True)
class RefuseNewer(_Action):
    installed: str
    kind: ClassVar[str] = "refuse-newer"
    is_blocked: ClassVar[bool] = True

    @property
    def installed_version(self) -> str | None:
        return self.installed

    def __str__(self) -> str:
        return f"refuse (installed {self.installed} is newer)"


@dataclass(frozen=True)
class Downgrade(_Action):
    previous: str
    kind: ClassVar[str] = "downgrade"
    will_write: ClassVar[bool] = True

    @property
    def from_version(self) -> str | None:
        return self.previous

    def __str__(self) -> str:
        return f"downgrade from {self.previous}"


TargetAction = Install | Update | Skip | DriftedSkip | RefuseNewer | Downgrade
