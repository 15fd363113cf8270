"""The lifecycle hook for bundle MCP servers (registered in upskill/hooks/registry.py).

add/update configure every MCP server of the installed bundles for the
selected targets, and unconfigure (only if still as written) a server the
bundle dropped or a target the run no longer selects; removing a bundle
leaves its servers configured (the book's explicit `remove-mcp` is the
removal path) and says so; doctor reconciles each record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from upskill.clientconf.clientcli import SubprocessCli
from upskill.clientconf.places import client_scope, places_for
from upskill.clients import BASELINE_CLIENTS, MCP_CLIENTS
from upskill.errors import UpskillError
from upskill.hooks.api import (
    HookContext,
    HookResult,
    ResolvedBundle,
    run_clients,
    warning_lines,
)
from upskill.mcp import records as conv
from upskill.mcp import shapes
from upskill.mcp.configure import configure_servers
from upskill.mcp.model import Status, from_format
from upskill.mcp.reconcile import reconcile
from upskill.mcp.unregister import unregister
from upskill.state.records import upsert


def targets_for(selection: Sequence[str]) -> tuple[str, ...]:
    """The clients of a selection that take MCP servers; empty means the baseline."""
    chosen = selection or BASELINE_CLIENTS
    return tuple(c for c in MCP_CLIENTS if c in chosen)


class McpHook:
    def check(self, ctx: HookContext, bundles: Sequence[ResolvedBundle]) -> None:
        """A server a selected client would evaluate as shell code (`mcp/shellvalue.py`)
        refuses the whole run, before any write: the bundle is what must change."""
        for resolved in bundles:
            targets = targets_for(run_clients(ctx, resolved.name))
            for server in map(from_format, resolved.bundle.mcps):
                for target in targets:
                    problem = shapes.shell_problem(server, target)
                    if problem is not None:
                        raise UpskillError(
                            f"mcp server {server.name!r}: {problem}; refused for {target}",
                            path=resolved.bundle.path,
                        )

    def install(self, ctx: HookContext, bundles: Sequence[ResolvedBundle]) -> HookResult:
        if ctx.dry_run:
            return HookResult(ctx.lock.plugins, ctx.lock.mcps)
        scope = client_scope(ctx.scope == "global")
        places = places_for(ctx.root, ctx.world)
        cli = SubprocessCli(ctx.world.env)
        mcps = ctx.lock.mcps
        messages: list[str] = []
        for resolved in bundles:
            servers = [from_format(s) for s in resolved.bundle.mcps]
            names = {s.name for s in servers}
            targets = targets_for(run_clients(ctx, resolved.name))
            gone = [
                r
                for r in (conv.mcp_record(e, scope) for e in mcps)
                if r.bundle == resolved.name and (r.name not in names or r.client not in targets)
            ]
            if gone:  # the bundle no longer declares them, or the run narrowed its clients
                keep = [r for r in (conv.mcp_record(e, scope) for e in mcps) if r not in gone]
                dropped = unregister(gone, places=places, cli=cli, keep=keep)
                messages += [*dropped.notices, *warning_lines(dropped.warnings)]
                keys = {(r.name, r.client) for r in gone}
                mcps = tuple(m for m in mcps if (m.name, m.client) not in keys)
            if not servers:
                continue
            recorded = {
                (r.name, r.client): r.sha256
                for r in (conv.mcp_record(e, scope) for e in mcps)
                if r.status is Status.INSTALLED
            }
            report = configure_servers(
                servers,
                targets,
                scope=scope,
                bundle=resolved.name,
                places=places,
                cli=cli,
                env=ctx.world.env,
                recorded=recorded,
                force=ctx.force,
            )
            messages += [*report.notices, *warning_lines(report.warnings)]
            mcps = upsert(mcps, [conv.mcp_entry(r) for r in report.records])
        return HookResult(ctx.lock.plugins, mcps, tuple(messages))

    def remove(self, ctx: HookContext, bundle_names: Sequence[str]) -> HookResult:
        kept = sorted({m.name for m in ctx.lock.mcps if m.bundle in bundle_names})
        messages = tuple(
            f"mcp {name} stays configured; remove it with `upskill remove-mcp {name}`"
            for name in kept
        )
        return HookResult(ctx.lock.plugins, ctx.lock.mcps, messages)

    def doctor(self, ctx: HookContext) -> dict[str, list[Any]]:
        scope = client_scope(ctx.scope == "global")
        records = [conv.mcp_record(e, scope) for e in ctx.lock.mcps]
        if not records:
            return {}
        checks = reconcile(
            records, places=places_for(ctx.root, ctx.world), cli=SubprocessCli(ctx.world.env)
        )
        return {"mcp_entries": [c.to_json() for c in checks]}
