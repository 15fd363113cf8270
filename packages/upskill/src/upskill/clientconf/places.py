"""Where a client's files live for one run, and which of its scopes a run uses.

upskill's project scope is the clients' `project` scope and its global scope
their `user` scope. Config locations are built from a `Places`, derived from
the run's `World`, so nothing here reads the process environment.
"""

from __future__ import annotations

import enum
import sys
from dataclasses import dataclass
from pathlib import Path

from upskill.world import World


class Scope(enum.StrEnum):
    """The client-side scope: upskill's project scope is `project`, global is `user`."""

    PROJECT = "project"
    USER = "user"


def client_scope(is_global: bool) -> Scope:
    """upskill's global scope is the clients' `user` scope."""
    return Scope.USER if is_global else Scope.PROJECT


def scope_of(value: str | None, default: Scope) -> Scope:
    """A recorded scope; a record without one has the scope of its lockfile."""
    return default if value is None else Scope(value)


@dataclass(frozen=True)
class Places:
    """Where things live for one invocation: the seams for cwd, HOME and XDG."""

    root: Path  # install root: the project dir, or HOME in global scope
    home: Path
    config_home: Path  # $XDG_CONFIG_HOME or ~/.config
    macos: bool = False


def places_for(root: Path, world: World) -> Places:
    return Places(
        root=root, home=world.home, config_home=world.config_home, macos=sys.platform == "darwin"
    )


@dataclass(frozen=True)
class ConfigLocation:
    """A client config file: the preferred path, alternatives read if present, and the key."""

    path: Path
    root_key: str
    alternatives: tuple[Path, ...] = ()
    within: Path | None = None  # a project file: its real path must stay in the project


def opencode_config(scope: Scope, places: Places, key: str) -> ConfigLocation:
    """opencode.json (or an existing opencode.jsonc): the project's, or the user's.

    MCP servers (`mcp`) and plugins (`plugin`) share this file.
    """
    project = scope is Scope.PROJECT
    folder = places.root if project else places.config_home / "opencode"
    within = places.root if project else None
    return ConfigLocation(folder / "opencode.json", key, (folder / "opencode.jsonc",), within)
