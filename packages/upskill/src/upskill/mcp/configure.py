"""Configure a bundle's MCP servers into every targeted client.

CLI first, config file second; each (server, target) pair is independent, so
one failure becomes a warning and a `skipped` record while the rest proceed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from upskill.clientconf import configfile
from upskill.clientconf.clientcli import ClientCli
from upskill.clientconf.places import Places, Scope
from upskill.errors import UpskillError
from upskill.mcp import shapes
from upskill.mcp.model import McpRecord, McpServer, Status, Target


@dataclass(frozen=True)
class McpReport:
    """What happened: lockfile records to upsert, plus lines for the CLI to show."""

    records: tuple[McpRecord, ...]
    notices: tuple[str, ...]
    warnings: tuple[str, ...]


def unset_env_warnings(server: McpServer, env: Mapping[str, str]) -> list[str]:
    """Names of declared variables that are unset or empty; values are never read out."""
    return [
        f"mcp {server.name}: environment variable {var} is not set; "
        "export it before the client starts the server"
        for var in server.requires_env
        if not env.get(var)
    ]


def _already_exists(output: str) -> bool:
    return "already exists" in output.lower()


def _via_cli(
    server: McpServer, target: Target, scope: Scope, places: Places, cli: ClientCli
) -> tuple[Status | None, str]:
    """Try the native CLI: (status, message), status None when the CLI is absent."""
    argv = shapes.add_argv(server, target, scope)
    if argv is None:
        return None, ""
    result = cli.run(argv, places.root)
    if result is None:
        return None, ""
    if not result.ok and _already_exists(result.stdout + result.stderr):
        # Safe overwrite: the definition in the bundle may have changed.
        remove = shapes.remove_argv(server.name, target, scope)
        if remove is not None:
            cli.run(remove, places.root)
            result = cli.run(argv, places.root) or result
    if result.ok:
        return Status.INSTALLED, f"mcp {server.name}: configured for {target} via `{argv[0]}`"
    return Status.SKIPPED, f"mcp {server.name}: `{argv[0]} mcp add` failed: {result.message()}"


def _via_file(
    server: McpServer, target: Target, scope: Scope, places: Places
) -> tuple[Status, str]:
    location = shapes.config_location(target, scope, places)
    if location is None:
        exe = shapes.CLI_NAME[target]
        return Status.SKIPPED, (
            f"mcp {server.name}: {exe} CLI not found and {target} has no {scope.value}-scope "
            "config file; install the CLI and run `upskill update`, or use --global"
        )
    try:
        configfile.upsert(location, server.name, shapes.config_entry(server, target))
    except UpskillError as exc:
        return Status.SKIPPED, f"mcp {server.name}: not configured for {target}: {exc}"
    return Status.INSTALLED, f"mcp {server.name}: configured for {target} in {location.path}"


def configure_servers(
    servers: Iterable[McpServer],
    targets: Sequence[Target],
    *,
    scope: Scope,
    bundle: str,
    places: Places,
    cli: ClientCli,
    env: Mapping[str, str],
) -> McpReport:
    records: list[McpRecord] = []
    notices: list[str] = []
    warnings: list[str] = []
    for server in servers:
        problem = shapes.argument_problem(server)
        if problem is not None:
            warnings.append(f"mcp {server.name}: not configured: {problem}")
            continue
        warnings += unset_env_warnings(server, env)
        for target in targets:
            status, message = _via_cli(server, target, scope, places, cli)
            if status is None:
                status, message = _via_file(server, target, scope, places)
            (notices if status is Status.INSTALLED else warnings).append(message)
            records.append(McpRecord(server.name, target, scope, bundle, status))
    return McpReport(tuple(records), tuple(notices), tuple(warnings))
