"""§7 version guard: compare versions, then pick one action per target."""

from __future__ import annotations

import enum

from cmx_core import _semver as semver
from cmx_core._actions import (
    Downgrade,
    DriftedSkip,
    Install,
    RefuseNewer,
    Skip,
    TargetAction,
    Update,
)


class Ordering(enum.IntEnum):
    LESS = -1
    EQUAL = 0
    GREATER = 1


class DiskState(enum.Enum):
    """What the planner found at the destination, reduced to what the table needs."""

    MISSING = "missing"
    MATCHES_SOURCE = "matches-source"
    DRIFTED = "drifted"


def compare_versions(installed: str | None, bundled: str) -> Ordering:
    """Absent → Less; both semver → precedence; else string equality or Less (never newer)."""
    if installed is None:
        return Ordering.LESS
    left, right = semver.parse(installed), semver.parse(bundled)
    if left is not None and right is not None:
        return Ordering(semver.compare(left, right))
    return Ordering.EQUAL if installed == bundled else Ordering.LESS


def decide_action(
    *,
    bundled_version: str,
    tracked: bool,
    installed_version: str | None,
    disk: DiskState,
    force: bool,
) -> TargetAction:
    """The full decision table; no lock entry means Install whatever is on disk."""
    if not tracked:
        return Install()
    order = compare_versions(installed_version, bundled_version)
    shown = installed_version if installed_version is not None else "unknown"
    if order is Ordering.LESS:
        return Update(installed_version)
    if order is Ordering.GREATER:
        return Downgrade(shown) if force else RefuseNewer(shown)
    if disk is DiskState.MISSING:
        return Install()
    if disk is DiskState.MATCHES_SOURCE:
        return Skip()
    return Update(installed_version) if force else DriftedSkip(shown)
