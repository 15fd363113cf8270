"""What `search` and `index` share: the configured registries and the index they open."""

from __future__ import annotations

from upskill.errors import UsageError
from upskill.search.registries import Refresher
from upskill.search.store import INDEX_FILE, IndexStore
from upskill.state.config import Registry, load_config
from upskill.world import World


def open_store(world: World) -> IndexStore:
    return IndexStore(world.cache_dir / "index" / INDEX_FILE)


def refresher(world: World, store: IndexStore) -> Refresher:
    return Refresher(store, world)


def registries(world: World, only: str | None) -> tuple[Registry, ...]:
    """Configured registries, or just `only` (a usage error when it is not configured)."""
    configured = load_config(world).registries
    if only is None:
        return configured
    chosen = tuple(r for r in configured if r.name == only)
    if not chosen:
        names = ", ".join(r.name for r in configured) or "none"
        raise UsageError(f"unknown registry {only!r} (configured: {names})")
    return chosen
