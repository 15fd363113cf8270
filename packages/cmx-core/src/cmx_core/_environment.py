"""Side-effect seams: where home is, where the project is, and what time it is.

Tests and the conformance runner inject fixed values; production uses the real ones.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol


class HomeLocator(Protocol):
    def home(self) -> Path: ...


class WorkdirLocator(Protocol):
    def cwd(self) -> Path: ...


class Clock(Protocol):
    def now(self) -> _dt.datetime: ...


class SystemHome:
    def home(self) -> Path:
        return Path.home()


class SystemWorkdir:
    def cwd(self) -> Path:
        return Path.cwd()


class SystemClock:
    def now(self) -> _dt.datetime:
        return _dt.datetime.now(_dt.UTC)


@dataclass(frozen=True)
class FixedHome:
    path: Path

    def home(self) -> Path:
        return self.path


@dataclass(frozen=True)
class FixedWorkdir:
    path: Path

    def cwd(self) -> Path:
        return self.path


@dataclass(frozen=True)
class FixedClock:
    instant: _dt.datetime

    def now(self) -> _dt.datetime:
        return self.instant


@dataclass(frozen=True)
class Environment:
    """The three seams bundled together; every operation resolves paths through one."""

    home: HomeLocator = field(default_factory=SystemHome)
    workdir: WorkdirLocator = field(default_factory=SystemWorkdir)
    clock: Clock = field(default_factory=SystemClock)


def rfc3339(instant: _dt.datetime) -> str:
    """Render like chrono's `to_rfc3339`: `+00:00` offset, fractional seconds only if set."""
    if instant.tzinfo is None:
        instant = instant.replace(tzinfo=_dt.UTC)
    spec = "microseconds" if instant.microsecond else "seconds"
    return instant.isoformat(timespec=spec)
