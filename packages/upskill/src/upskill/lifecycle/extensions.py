"""Call sites for bundle MCP servers and plugins (owned by the EXTENSIONS area).

Lifecycle code does not know how MCP servers or plugins are configured; it
calls every registered hook at fixed points and stores the `plugins[]` and
`mcps[]` records the hooks return in the lockfile:

- `install` after add/update applied the item files (under the scope lock),
- `remove` when remove drops bundles,
- `doctor` to fill the plugin/MCP buckets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
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
    def install(self, ctx: HookContext, bundles: Sequence[ResolvedBundle]) -> HookResult: ...

    def remove(self, ctx: HookContext, bundle_names: Sequence[str]) -> HookResult: ...

    def doctor(self, ctx: HookContext) -> dict[str, list[Any]]: ...


def registered_hooks() -> list[BundleHook]:
    """Import lazily: extension code loads only when a bundle run needs it."""
    hooks: list[BundleHook] = []
    # EXTENSIONS: register hooks here
    from upskill.mcp.hook import McpHook
    from upskill.plugins.hook import PluginHook

    hooks += [McpHook(), PluginHook()]
    return hooks


@dataclass(frozen=True)
class HookOutcome:
    lock: Lockfile
    messages: tuple[str, ...] = field(default_factory=tuple)


def run_install(ctx: HookContext, bundles: Sequence[ResolvedBundle]) -> HookOutcome:
    """Hooks act on the bundles of a run: without any, none is loaded or called."""
    if not bundles:
        return HookOutcome(ctx.lock)
    return _fold(ctx, lambda hook, c: hook.install(c, bundles))


def run_remove(ctx: HookContext, bundle_names: Sequence[str]) -> HookOutcome:
    return _fold(ctx, lambda hook, c: hook.remove(c, bundle_names))


def run_doctor(ctx: HookContext) -> dict[str, list[Any]]:
    buckets: dict[str, list[Any]] = {"missing_plugins": [], "skipped_plugins": []}
    for hook in registered_hooks():
        for key, values in hook.doctor(ctx).items():
            buckets.setdefault(key, []).extend(values)
    return buckets


def _fold(ctx: HookContext, call: Any) -> HookOutcome:
    import dataclasses

    lock = ctx.lock
    messages: list[str] = []
    for hook in registered_hooks():
        result: HookResult = call(hook, dataclasses.replace(ctx, lock=lock))
        lock = dataclasses.replace(lock, plugins=result.plugins, mcps=result.mcps)
        messages += result.messages
    return HookOutcome(lock, tuple(messages))
