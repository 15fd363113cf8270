"""Where a run happens: its working directory, home directory and environment.

The one place HOME and the XDG base directories are resolved. Commands build
a `World` once (`World.current()`), and everything that needs a user
directory asks it: the git cache and fast-path state (`cache_dir`), the
search index (`cache_dir / "index"`), the global config (`config_home`),
the journals of interrupted runs (`state_dir`),
and the client config files MCP servers and plugins are written to. Tests
build one with a temporary HOME instead of patching the process.
Project-or-global scope resolution builds on it (`upskill.lifecycle.scope`).

The dispatcher builds the world of every command run (or takes the one a test
or an embedder passes to `upskill.cli.main`), so it is on the start-up path
of every command: a plain immutable class, not a dataclass, whose import pulls
in `inspect` (about 4 ms, more than `upskill completion bash` needs otherwise).
"""

from __future__ import annotations

import os
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


class World:
    """The side-effect seams commands read: cwd, home, environment. Immutable; equal when
    all three are."""

    __slots__ = ("_cwd", "_env", "_home")

    def __init__(self, cwd: Path, home: Path, env: Mapping[str, str]) -> None:
        self._cwd = cwd
        self._home = home
        self._env = env

    @property
    def cwd(self) -> Path:
        """The run's working directory: relative paths on its command line are read here."""
        return self._cwd

    @property
    def home(self) -> Path:
        return self._home

    @property
    def env(self) -> Mapping[str, str]:
        """The run's environment: every variable upskill reads, and what its git and client
        CLI subprocesses get."""
        return self._env

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, World):
            return NotImplemented
        return (self.cwd, self.home, self.env) == (other.cwd, other.home, other.env)

    __hash__ = None  # type: ignore[assignment]  # the environment is a mutable mapping

    def __repr__(self) -> str:
        return f"World(cwd={self.cwd!r}, home={self.home!r}, env=<{len(self.env)} variables>)"

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
