"""Where a run happens: its working directory, home directory and environment.

The one place HOME and the XDG base directories are resolved. Commands build
a `World` once (`World.current()`), and everything that needs a user
directory asks it: the git cache and fast-path state (`cache_dir`), the
search index (`cache_dir / "index"`), the global config (`config_home`),
the journals of interrupted runs (`state_dir`),
and the client config files MCP servers and plugins are written to. Tests
build one with a temporary HOME instead of patching the process.
Project-or-global scope resolution builds on it (`upskill.lifecycle.scope`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class World:
    """The side-effect seams commands read: cwd, home, environment."""

    cwd: Path
    home: Path
    env: Mapping[str, str]

    @staticmethod
    def current() -> World:
        env = dict(os.environ)
        home = env.get("HOME") or env.get("USERPROFILE") or str(Path.home())
        return World(Path.cwd(), Path(home), env)

    @property
    def config_home(self) -> Path:
        """`$XDG_CONFIG_HOME`, else `~/.config`."""
        return Path(self.env.get("XDG_CONFIG_HOME") or self.home / ".config")

    @property
    def cache_home(self) -> Path:
        """`$XDG_CACHE_HOME`, else `~/.cache`."""
        return Path(self.env.get("XDG_CACHE_HOME") or self.home / ".cache")

    @property
    def cache_dir(self) -> Path:
        """upskill's own cache: git mirrors, fast-path state, the search index."""
        return self.cache_home / "upskill"

    @property
    def state_home(self) -> Path:
        """`$XDG_STATE_HOME`, else `~/.local/state`."""
        return Path(self.env.get("XDG_STATE_HOME") or self.home / ".local" / "state")

    @property
    def state_dir(self) -> Path:
        """upskill's machine-local run state: the journals of interrupted runs. Never
        inside a project, so a cloned repository cannot carry one (docs/security.md)."""
        return self.state_home / "upskill"
