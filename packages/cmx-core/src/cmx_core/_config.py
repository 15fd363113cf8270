"""Read-only view of cmx's `config.json`: the managed platform set and the artifact home."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cmx_core._errors import FileFormatError
from cmx_core._jsonfile import read_json_object
from cmx_core._paths import Layout
from cmx_core._platforms import Platform


@dataclass(frozen=True)
class CmxConfig:
    platforms: tuple[Platform, ...] = ()
    home: Path | None = None

    @property
    def managed_platforms(self) -> tuple[Platform, ...] | None:
        """A non-empty `platforms` list is what makes a machine cmx-managed (§8.2)."""
        return self.platforms or None


def load_config(layout: Layout) -> CmxConfig:
    path = layout.config_path
    raw = read_json_object(path)
    if raw is None:
        return CmxConfig()
    version = raw.get("version")
    if type(version) is not int:
        raise FileFormatError(path, "version must be an integer")
    if version != 1:
        raise FileFormatError(path, f"unsupported config version {version} (expected 1)")
    platforms_raw = raw.get("platforms", [])
    if type(platforms_raw) is not list or any(type(p) is not str for p in platforms_raw):
        raise FileFormatError(path, "platforms must be a list of platform names")
    platforms: list[Platform] = []
    for token in platforms_raw:
        try:
            platform = Platform.parse(token)
        except ValueError:
            raise FileFormatError(path, f"unknown platform {token!r} in platforms") from None
        if platform not in platforms:
            platforms.append(platform)
    home_raw = raw.get("home")
    if home_raw is not None and type(home_raw) is not str:
        raise FileFormatError(path, "home must be a string path")
    return CmxConfig(tuple(platforms), _expand(home_raw, layout) if home_raw else None)


def _expand(text: str, layout: Layout) -> Path:
    if text == "~":
        return layout.home
    if text.startswith("~/"):
        return layout.home / text[2:]
    return Path(text)


def artifact_home(config: CmxConfig, layout: Layout) -> Path:
    return config.home if config.home is not None else layout.config_root / "home"
