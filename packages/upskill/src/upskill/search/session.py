"""What `search` and `index` share: the places they read and the index they open."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from upskill.errors import UsageError
from upskill.search.registries import Refresher, configured_registries
from upskill.search.store import INDEX_FILE, IndexStore, index_dir
from upskill.state.config import Registry


@dataclass(frozen=True)
class Session:
    cwd: Path
    home: Path
    env: Mapping[str, str]

    @classmethod
    def from_process(cls) -> Session:
        env = dict(os.environ)
        home = Path(env.get("HOME") or Path.home())
        return cls(Path.cwd(), home, env)

    def store(self) -> IndexStore:
        return IndexStore(index_dir(dict(self.env), self.home) / INDEX_FILE)

    def refresher(self, store: IndexStore) -> Refresher:
        return Refresher(store, self.cwd, self.home, self.env)

    def registries(self, only: str | None) -> tuple[Registry, ...]:
        """Configured registries, or just `only` (a usage error when it is not configured)."""
        configured = configured_registries(self.cwd, self.home, self.env)
        if only is None:
            return configured
        chosen = tuple(r for r in configured if r.name == only)
        if not chosen:
            names = ", ".join(r.name for r in configured) or "none"
            raise UsageError(f"unknown registry {only!r} (configured: {names})")
        return chosen
