"""`config.yaml`: the global (~/.config/upskill) and project (.upskill/) settings.

Only `clients:` and `registries:` have meaning; other keys are left for future
use and ignored. A malformed file is an error naming it, never a silent default.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from upskill.clients import SELECTABLE_CLIENTS
from upskill.errors import UpskillError
from upskill.world import World

PROJECT_CONFIG = Path(".upskill") / "config.yaml"


class ConfigError(UpskillError):
    """A config file is malformed."""


@dataclass(frozen=True)
class Registry:
    name: str
    source: str


@dataclass(frozen=True)
class Config:
    clients: tuple[str, ...] | None = None  # None: not set
    registries: tuple[Registry, ...] = ()


def global_config_path(world: World) -> Path:
    return world.config_home / "upskill" / "config.yaml"


def load_config_paths(world: World) -> tuple[Path, Path]:
    """The two config files, in precedence order (global, project)."""
    return global_config_path(world), world.cwd / PROJECT_CONFIG


def load_config(world: World) -> Config:
    """The global config with the project's merged over it."""
    global_path, project_path = load_config_paths(world)
    return merged(read_config(global_path), read_config(project_path, within=world.cwd))


def read_config(path: Path, *, within: Path | None = None) -> Config:
    """`within`: the project a project config must not leave (`fsio.read_contained`)."""
    from upskill.fsio import read_contained

    try:
        data = read_contained(path, within=within)
        if data is None:
            return Config()
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read config: {exc}", path=path) from None
    return parse_config(text, path)


def parse_config(text: str, path: Path) -> Config:
    """YAML 1.2 through the same loader as items and bundles (`format/yamlio`)."""
    from upskill.errors import FormatError
    from upskill.format.yamlio import load_yaml

    try:
        raw: Any = load_yaml(text, path)
    except FormatError as exc:
        raise ConfigError(exc.message, path=path, line=exc.line) from None
    if raw is None:
        return Config()
    if type(raw) is not dict:
        raise ConfigError("config must be a mapping", path=path)
    clients: tuple[str, ...] | None = None
    if "clients" in raw:
        value = raw["clients"]
        if type(value) is not list or any(type(c) is not str for c in value):
            raise ConfigError("`clients` must be a list of client names", path=path)
        for c in value:
            if c not in SELECTABLE_CLIENTS:
                known = ", ".join(SELECTABLE_CLIENTS)
                raise ConfigError(
                    f"unknown client {c!r} in `clients` (expected: {known})", path=path
                )
        clients = tuple(c for c in SELECTABLE_CLIENTS if c in value)
    registries = []
    for entry in raw.get("registries") or []:
        if (
            type(entry) is not dict
            or type(entry.get("name")) is not str
            or type(entry.get("source")) is not str
        ):
            raise ConfigError("`registries` entries need string `name` and `source`", path=path)
        registries.append(Registry(entry["name"], entry["source"]))
    return Config(clients, tuple(registries))


def merged(global_cfg: Config, project_cfg: Config) -> Config:
    """Project `clients` replaces global; project registries override by name."""
    clients = project_cfg.clients if project_cfg.clients is not None else global_cfg.clients
    by_name = {r.name: r for r in global_cfg.registries}
    by_name.update({r.name: r for r in project_cfg.registries})
    return Config(clients, tuple(by_name.values()))
