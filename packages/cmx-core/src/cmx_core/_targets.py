"""§8.1 / §8.3: which platforms an operation touches. Pure functions over observed state."""

from __future__ import annotations

from collections.abc import Iterable

from cmx_core._platforms import ALL_PLATFORMS, ArtifactKind, Platform


def resolve_install_targets(
    kind: ArtifactKind,
    managed: tuple[Platform, ...] | None,
    non_empty_locks: Iterable[Platform],
) -> tuple[Platform, ...]:
    """Managed set (config order) wins; else platforms already in use; else Claude only."""
    if managed:
        return tuple(p for p in managed if p.supports(kind))
    in_use = set(non_empty_locks)
    inferred = tuple(p for p in ALL_PLATFORMS if p in in_use and p.supports(kind))
    return inferred or (Platform.CLAUDE,)


def resolve_remove_targets(
    kind: ArtifactKind, managed: tuple[Platform, ...] | None
) -> tuple[Platform, ...]:
    """Remove leaves nothing behind: the managed set, else every platform (deliberate asymmetry)."""
    chosen = managed if managed else ALL_PLATFORMS
    return tuple(p for p in chosen if p.supports(kind))
