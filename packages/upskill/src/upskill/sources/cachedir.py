"""The user cache directory: `$XDG_CACHE_HOME/upskill`, else `~/.cache/upskill`."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path


def cache_dir(env: Mapping[str, str], home: Path) -> Path:
    base = env.get("XDG_CACHE_HOME") or str(home / ".cache")
    return Path(base) / "upskill"
