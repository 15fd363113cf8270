"""The hook protocol: what the lifecycle passes to extension hooks and gets back.

The lifecycle calls every registered hook at fixed points and stores the
`plugins[]` and `mcps[]` entries the hooks return in the lockfile:

- `install` after add/update applied the item files (under the scope lock),
- `remove` when remove drops bundles,
- `doctor` to fill the plugin/MCP buckets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from upskill.format.model import Bundle
from upskill.state.lockfile import Lockfile
from upskill.state.records import McpEntry, PluginEntry
from upskill.world import World


@dataclass(frozen=True)
class HookContext:
    root: Path
    scope: str  # "project" | "global"
    selection: tuple[str, ...]  # selectable clients of this run (empty: every client)
    lock: Lockfile  # the lockfile as it will be written (items/bundles/outputs final)
    dry_run: bool
    world: World  # cwd, HOME, XDG and the environment the hooks run with
    force: bool = False  # `--force`: replace a user's same-named MCP server too


@dataclass(frozen=True)
class ResolvedBundle:
    name: str
    source_label: str
    bundle: Bundle


@dataclass(frozen=True)
class HookResult:
    """The complete new `plugins[]` and `mcps[]` lists, and lines to show the user."""

    plugins: tuple[PluginEntry, ...]
    mcps: tuple[McpEntry, ...]
    messages: tuple[str, ...] = ()


class BundleHook(Protocol):
    def check(self, ctx: HookContext, bundles: Sequence[ResolvedBundle]) -> None:
        """Refuse the run (raise an `UpskillError`) before anything is written, when a
        bundle asks for something the hook will not do at all."""
        ...

    def install(self, ctx: HookContext, bundles: Sequence[ResolvedBundle]) -> HookResult: ...

    def remove(self, ctx: HookContext, bundle_names: Sequence[str]) -> HookResult: ...

    def doctor(self, ctx: HookContext) -> dict[str, list[Any]]: ...


def run_clients(ctx: HookContext, bundle: str) -> tuple[str, ...]:
    """The clients a bundle's servers and plugins go to: the run's selection; without one
    (a bare `update`), the clients recorded for them, else those of the bundle's items.
    Empty: every client (an install that never chose). An update never spreads a
    bundle's servers or plugins to clients nobody selected (issue 14)."""
    if ctx.selection:
        return ctx.selection
    entries: list[McpEntry | PluginEntry] = [*ctx.lock.mcps, *ctx.lock.plugins]
    recorded = {e.client for e in entries if e.bundle == bundle}
    if not recorded:
        record = next((b for b in ctx.lock.bundles if b.name == bundle), None)
        names = set(record.items) if record is not None else set()
        items = [i for i in ctx.lock.items if i.name in names]
        if any(not i.clients for i in items):
            return ()  # an item recorded for every client
        recorded = {c for i in items for c in i.clients}
    return tuple(sorted(recorded))


def warning_lines(lines: Sequence[str]) -> list[str]:
    """Hook messages are shown as they are; warnings carry their prefix in the line."""
    return [f"warning: {line}" for line in lines]
