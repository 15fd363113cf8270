"""Client selection: flags > project config > global config > detected > baseline.

`None` means "nothing chose": add installs for the baseline clients, and a bare
update keeps each item's recorded selection. Detection applies to `add` only: an
update never widens what was recorded.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from upskill.clients import BASELINE_CLIENTS, SELECTABLE_CLIENTS
from upskill.lifecycle.detect import Detection
from upskill.state.config import Config
from upskill.state.lockfile import ItemRecord, Lockfile, LockfileError


def choose(
    flags: Sequence[str], config: Config, detected: Sequence[Detection] = ()
) -> tuple[str, ...] | None:
    if flags:
        return tuple(c for c in SELECTABLE_CLIENTS if c in flags)
    if config.clients is not None:
        return config.clients
    if detected:
        return tuple(d.client for d in detected)
    return None


def in_use(lock: Lockfile) -> tuple[str, ...]:
    """The clients a scope's installed items were selected for (their recorded clients, an
    empty record being the baseline, and those they were not delivered to), in canonical
    order; empty when nothing is installed."""
    used = {c for item in lock.items for c in selected(item)}
    return tuple(c for c in SELECTABLE_CLIENTS if c in used)


def check_recorded(lock: Lockfile, path: Path) -> None:
    """Every client an item's record names must be one this upskill knows: a lockfile is
    hand-merged, or written by a newer version with more clients, and a run weighing an
    unknown one would fail without naming the file. Checked where selections are used
    (`engine.plan_install`), not on every read: the registry loads only then."""
    known = set(SELECTABLE_CLIENTS)
    expected = ", ".join(SELECTABLE_CLIENTS)
    for item in lock.items:
        for field, clients in (("clients", item.clients), ("unplaced", item.unplaced)):
            unknown = next((c for c in clients if c not in known), None)
            if unknown is not None:
                raise LockfileError(
                    f"malformed lockfile: `items` entry {item.key}: field `{field}` names "
                    f"unknown client {unknown!r} (expected one of: {expected})",
                    path=path,
                )


def recorded(clients: tuple[str, ...]) -> tuple[str, ...]:
    """How a selection is stored: the baseline clients are the empty list (upstream: empty
    means all, which were these four before the registry grew)."""
    return () if set(clients) == set(BASELINE_CLIENTS) else clients


def expand(recorded_clients: Sequence[str]) -> tuple[str, ...]:
    return tuple(recorded_clients) or BASELINE_CLIENTS


def selected(item: ItemRecord) -> tuple[str, ...]:
    """The selection an item was installed with: the clients it was delivered to and
    those it was not (`unplaced`), which a bare update weighs again."""
    return tuple(dict.fromkeys((*expand(item.clients), *item.unplaced)))
