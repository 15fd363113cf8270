"""The lifecycle hook for bundle plugins (registered in upskill/hooks/registry.py).

add/update install the plugins of the installed bundles for the selected
clients and uninstall those a bundle dropped or a narrowed run no longer
selects; removing a bundle uninstalls its plugins; doctor fills the
missing/skipped buckets. A present CLI failing keeps any previous record
(the failure is transient) and records nothing new.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from upskill.clientconf.clientcli import SubprocessCli
from upskill.clientconf.places import Scope, client_scope, places_for, scope_of
from upskill.clients import BASELINE_CLIENTS
from upskill.hooks.api import (
    HookContext,
    HookResult,
    ResolvedBundle,
    run_clients,
    warning_lines,
)
from upskill.plugins.install import install_plugins
from upskill.plugins.model import PluginRecord, PluginStatus
from upskill.plugins.reconcile import reconcile_plugins
from upskill.plugins.uninstall import uninstall_plugins
from upskill.state.records import PluginEntry, upsert


def plugin_record(entry: PluginEntry, default_scope: Scope) -> PluginRecord:
    """The stored entry with its scope resolved (the parser checked every field)."""
    return PluginRecord(
        name=entry.name,
        client=entry.client,
        identifier=entry.identifier,
        scope=scope_of(entry.scope, default_scope),
        bundle=entry.bundle,
        status=PluginStatus(entry.status),
    )


def plugin_entry(record: PluginRecord) -> PluginEntry:
    return PluginEntry(
        name=record.name,
        client=record.client,
        identifier=record.identifier,
        scope=record.scope.value,
        bundle=record.bundle,
        status=record.status.value,
    )


def _records(ctx: HookContext) -> list[PluginRecord]:
    scope = client_scope(ctx.scope == "global")
    return [plugin_record(e, scope) for e in ctx.lock.plugins]


class PluginHook:
    def check(self, ctx: HookContext, bundles: Sequence[ResolvedBundle]) -> None:
        """Nothing to refuse up front: a plugin a client cannot take is a warning."""

    def install(self, ctx: HookContext, bundles: Sequence[ResolvedBundle]) -> HookResult:
        if ctx.dry_run:
            return HookResult(ctx.lock.plugins, ctx.lock.mcps)
        plugins = ctx.lock.plugins
        messages: list[str] = []
        scope = client_scope(ctx.scope == "global")
        for resolved in bundles:
            clients = run_clients(ctx, resolved.name) or BASELINE_CLIENTS
            declared = {p.name for p in resolved.bundle.plugins}
            going = [
                r
                for r in (plugin_record(e, scope) for e in plugins)
                if r.bundle == resolved.name and (r.name not in declared or r.client not in clients)
            ]
            if going:  # the bundle dropped them, or the run narrowed its clients
                gone = uninstall_plugins(
                    going, places=places_for(ctx.root, ctx.world), cli=SubprocessCli(ctx.world.env)
                )
                messages += [*gone.notices, *warning_lines(gone.warnings)]
                keys = {(r.name, r.client) for r in going}
                plugins = tuple(p for p in plugins if (p.name, p.client) not in keys)
            if not resolved.bundle.plugins:
                continue
            report = install_plugins(
                resolved.bundle.plugins,
                clients,
                scope=scope,
                bundle=resolved.name,
                places=places_for(ctx.root, ctx.world),
                cli=SubprocessCli(ctx.world.env),
            )
            messages += [*report.notices, *warning_lines(report.warnings)]
            plugins = upsert(plugins, [plugin_entry(r) for r in report.records])
        return HookResult(plugins, ctx.lock.mcps, tuple(messages))

    def remove(self, ctx: HookContext, bundle_names: Sequence[str]) -> HookResult:
        going = [r for r in _records(ctx) if r.bundle in bundle_names]
        if not going:
            return HookResult(ctx.lock.plugins, ctx.lock.mcps)
        report = uninstall_plugins(
            going, places=places_for(ctx.root, ctx.world), cli=SubprocessCli(ctx.world.env)
        )
        keys = {(r.name, r.client) for r in going}
        kept = tuple(p for p in ctx.lock.plugins if (p.name, p.client) not in keys)
        messages = (*report.notices, *warning_lines(report.warnings))
        return HookResult(kept, ctx.lock.mcps, messages)

    def doctor(self, ctx: HookContext) -> dict[str, list[Any]]:
        checks = reconcile_plugins(
            _records(ctx), places=places_for(ctx.root, ctx.world), cli=SubprocessCli(ctx.world.env)
        )
        return {
            "missing_plugins": [r.to_json() for r in checks.missing],
            "skipped_plugins": [r.to_json() for r in checks.skipped],
        }
