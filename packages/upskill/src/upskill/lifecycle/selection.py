"""Client selection: flags > project config > global config > the baseline clients.

`None` means "nothing chose": add installs for the baseline clients, and a bare
update keeps each item's recorded selection.
"""

from __future__ import annotations

from collections.abc import Sequence

from upskill.clients import BASELINE_CLIENTS, SELECTABLE_CLIENTS
from upskill.state.config import Config


def choose(flags: Sequence[str], config: Config) -> tuple[str, ...] | None:
    if flags:
        return tuple(c for c in SELECTABLE_CLIENTS if c in flags)
    return config.clients


def recorded(clients: tuple[str, ...]) -> tuple[str, ...]:
    """How a selection is stored: the baseline clients are the empty list (upstream: empty
    means all, which were these four before the registry grew)."""
    return () if set(clients) == set(BASELINE_CLIENTS) else clients


def expand(recorded_clients: Sequence[str]) -> tuple[str, ...]:
    return tuple(recorded_clients) or BASELINE_CLIENTS
