"""Call sites for extension hooks: bundle MCP servers and plugins.

Lifecycle code does not know how MCP servers or plugins are configured; it
calls every registered hook (`upskill.hooks.registry`) at fixed points and
folds the `plugins[]` and `mcps[]` entries they return into the lockfile.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from upskill.hooks.api import BundleHook, HookContext, HookResult, ResolvedBundle
from upskill.hooks.registry import registered_hooks
from upskill.state.lockfile import Lockfile


@dataclass(frozen=True)
class HookOutcome:
    lock: Lockfile
    messages: tuple[str, ...] = field(default_factory=tuple)


def run_install(ctx: HookContext, bundles: Sequence[ResolvedBundle]) -> HookOutcome:
    """Hooks act on the bundles of a run: without any, none is loaded or called."""
    if not bundles:
        return HookOutcome(ctx.lock)
    return _fold(ctx, lambda hook, c: hook.install(c, bundles))


def run_check(ctx: HookContext, bundles: Sequence[ResolvedBundle]) -> None:
    """Let every hook refuse the run's bundles before anything is written."""
    if not bundles:
        return
    for hook in registered_hooks():
        hook.check(ctx, bundles)


def run_remove(ctx: HookContext, bundle_names: Sequence[str]) -> HookOutcome:
    return _fold(ctx, lambda hook, c: hook.remove(c, bundle_names))


def run_doctor(ctx: HookContext) -> dict[str, list[Any]]:
    buckets: dict[str, list[Any]] = {"missing_plugins": [], "skipped_plugins": []}
    for hook in registered_hooks():
        for key, values in hook.doctor(ctx).items():
            buckets.setdefault(key, []).extend(values)
    return buckets


def _fold(ctx: HookContext, call: Callable[[BundleHook, HookContext], HookResult]) -> HookOutcome:
    import dataclasses

    lock = ctx.lock
    messages: list[str] = []
    for hook in registered_hooks():
        result = call(hook, dataclasses.replace(ctx, lock=lock))
        lock = dataclasses.replace(lock, plugins=result.plugins, mcps=result.mcps)
        messages += result.messages
    return HookOutcome(lock, tuple(messages))
