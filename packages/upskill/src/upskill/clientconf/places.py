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

from upskill.clients import get
from upskill.clients.base import Base, ConfigFile
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
    home: Path | None = None  # the user's home, where a user file's symlink may lead

    @property
    def root(self) -> Path | None:
        """The scope root a symlinked file may resolve into for a write through it
        (`fsio.replaced_file`): the project, or the user's home for a user file."""
        return self.within or self.home


def locate(file: ConfigFile, key: str, places: Places) -> ConfigLocation:
    """Where a client's config file (`clients.base.ConfigFile`) is for this run."""
    if file.base is Base.ROOT:
        folder, within = places.root, places.root
    elif file.base is Base.HOME:
        folder, within = places.home, None
    elif file.base is Base.APP_CONFIG and places.macos:
        folder, within = places.home / "Library" / "Application Support", None
    else:
        folder, within = places.config_home, None
    others = tuple(folder / p for p in file.alternatives)
    return ConfigLocation(folder / file.path, key, others, within, places.home)


def opencode_config(scope: Scope, places: Places, key: str) -> ConfigLocation:
    """opencode.json (or an existing opencode.jsonc): the project's, or the user's.

    MCP servers (`mcp`) and plugins (`plugin`) share this file.
    """
    route = get("opencode").mcp
    assert route is not None and route.project is not None and route.user is not None
    return locate(route.project if scope is Scope.PROJECT else route.user, key, places)
