"""What `search` and `index` share: the configured registries and the index they open."""

from __future__ import annotations

from upskill.errors import UsageError
from upskill.lifecycle.scope import World
from upskill.search.registries import Refresher, configured_registries
from upskill.search.store import INDEX_FILE, IndexStore, index_dir
from upskill.state.config import Registry


def open_store(world: World) -> IndexStore:
    return IndexStore(index_dir(dict(world.env), world.home) / INDEX_FILE)


def refresher(world: World, store: IndexStore) -> Refresher:
    return Refresher(store, world.cwd, world.home, world.env)


def registries(world: World, only: str | None) -> tuple[Registry, ...]:
    """Configured registries, or just `only` (a usage error when it is not configured)."""
    configured = configured_registries(world.cwd, world.home, world.env)
    if only is None:
        return configured
    chosen = tuple(r for r in configured if r.name == only)
    if not chosen:
        names = ", ".join(r.name for r in configured) or "none"
        raise UsageError(f"unknown registry {only!r} (configured: {names})")
    return chosen
