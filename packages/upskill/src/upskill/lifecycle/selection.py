"""Client selection: flags > project config > global config > everything.

`None` means "nothing chose": add installs for every client, and a bare
update keeps each item's recorded selection.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from upskill.clients import SELECTABLE_CLIENTS
from upskill.lifecycle.scope import World
from upskill.state.config import (
    PROJECT_CONFIG,
    Config,
    global_config_path,
    merged,
    read_config,
)


def load_config(world: World) -> Config:
    return merged(
        read_config(global_config_path(world.env, world.home)),
        read_config(world.cwd / PROJECT_CONFIG),
    )


def choose(flags: Sequence[str], config: Config) -> tuple[str, ...] | None:
    if flags:
        return tuple(c for c in SELECTABLE_CLIENTS if c in flags)
    return config.clients


def recorded(clients: tuple[str, ...]) -> tuple[str, ...]:
    """How a selection is stored: every client is the empty list (upstream: empty means all)."""
    return () if set(clients) >= set(SELECTABLE_CLIENTS) else clients


def expand(recorded_clients: Sequence[str]) -> tuple[str, ...]:
    return tuple(recorded_clients) or SELECTABLE_CLIENTS


def load_config_paths(world: World) -> tuple[Path, Path]:
    """The two config files, in precedence order (global, project)."""
    return global_config_path(world.env, world.home), world.cwd / PROJECT_CONFIG
