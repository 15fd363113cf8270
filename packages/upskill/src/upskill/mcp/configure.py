"""Configure a bundle's MCP servers into every targeted client.

CLI first, config file second; each (server, target) pair is independent, so
one failure becomes a warning and a `skipped` record while the rest proceed.
A same-named server upskill did not write is the user's (`mcp/ownership.py`):
it is left as it is and reported, unless `--force` asks to replace it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from upskill.clientconf import configfile
from upskill.clientconf.clientcli import ClientCli
from upskill.clientconf.places import Places, Scope
from upskill.errors import UpskillError
from upskill.mcp import ownership, shapes
from upskill.mcp.model import McpRecord, McpServer, Status
from upskill.mcp.ownership import Verdict


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
    server: McpServer, target: str, scope: Scope, places: Places, cli: ClientCli, replace: bool
) -> tuple[Status | None, str]:
    """Try the native CLI: (status, message), status None when the CLI is absent. An
    existing server of the name is removed and added again only when `replace`."""
    argv = shapes.add_argv(server, target, scope)
    if argv is None:
        return None, ""
    result = cli.run(argv, places.root)
    if result is None:
        return None, ""
    if not result.ok and replace and _already_exists(result.stdout + result.stderr):
        # Safe overwrite: the definition in the bundle may have changed.
        remove = shapes.remove_argv(server.name, target, scope)
        if remove is not None:
            cli.run(remove, places.root)
            result = cli.run(argv, places.root) or result
    if result.ok:
        return Status.INSTALLED, f"mcp {server.name}: configured for {target} via `{argv[0]}`"
    return Status.SKIPPED, f"mcp {server.name}: `{argv[0]} mcp add` failed: {result.message()}"


def _via_file(server: McpServer, target: str, scope: Scope, places: Places) -> tuple[Status, str]:
    location = shapes.config_location(target, scope, places)
    if location is None:
        exe = shapes.cli_name(target)
        if exe is None:  # no CLI to fall back on (Cline reads MCP servers at user level only)
            return Status.SKIPPED, (
                f"mcp {server.name}: {target} has no {scope.value}-scope config file"
            )
        return Status.SKIPPED, (
            f"mcp {server.name}: {exe} CLI not found and {target} has no {scope.value}-scope "
            "config file; install the CLI and run `upskill update`, or use --global"
        )
    try:
        configfile.upsert(location, server.name, shapes.config_entry(server, target))
    except UpskillError as exc:
        return Status.SKIPPED, f"mcp {server.name}: not configured for {target}: {exc}"
    return Status.INSTALLED, f"mcp {server.name}: configured for {target} in {location.path}"


def _configure_one(
    server: McpServer,
    target: str,
    scope: Scope,
    places: Places,
    cli: ClientCli,
    *,
    was_configured: bool,
    recorded: str | None,
    force: bool,
) -> tuple[Status, str, str | None]:
    """(status, message, digest of the entry left) for one server and client.

    When the client's CLI reports the name taken although its config file has no such
    entry, the entry is somewhere upskill cannot inspect (the fakes in tests keep their
    own state); it is replaced only when upskill recorded configuring it."""
    location = shapes.doctor_location(target, scope, places)  # where the entry lives
    verdict, _ = ownership.judge(
        location, server.name, recorded, shapes.config_entry(server, target)
    )
    if verdict is Verdict.THEIRS and not force:
        assert location is not None
        return (
            Status.SKIPPED,
            f"mcp {server.name}: not configured for {target}: {location.path} already has a "
            f"server {server.name!r} that upskill did not write (or it was edited since); "
            "it is kept (use --force to replace it)",
            None,
        )
    replace = (
        force
        or verdict in (Verdict.OURS, Verdict.SAME)
        or (verdict is Verdict.FREE and was_configured)
    )
    status, message = _via_cli(server, target, scope, places, cli, replace)
    if status is None:
        status, message = _via_file(server, target, scope, places)
    left = ownership.current_digest(location, server.name) if status is Status.INSTALLED else None
    return status, message, left


def configure_servers(
    servers: Iterable[McpServer],
    targets: Sequence[str],
    *,
    scope: Scope,
    bundle: str,
    places: Places,
    cli: ClientCli,
    env: Mapping[str, str],
    recorded: Mapping[tuple[str, str], str | None] | None = None,
    force: bool = False,
) -> McpReport:
    """`recorded`: each (server, client) upskill configured before, with the digest of the
    entry it left when known."""
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
            unsupported = shapes.transport_problem(server, target)
            if unsupported is not None:
                warnings.append(f"mcp {server.name}: not configured: {unsupported}")
                records.append(McpRecord(server.name, target, scope, bundle, Status.SKIPPED))
                continue
            refused = shapes.shell_problem(server, target)
            if refused is not None:  # the install hook's check refuses this before any write
                warnings.append(f"mcp {server.name}: not configured for {target}: {refused}")
                records.append(McpRecord(server.name, target, scope, bundle, Status.SKIPPED))
                continue
            for key in shapes.unexpanded(server, target):
                warnings.append(
                    f"mcp {server.name}: {target} does not expand ${{VAR}} references: {key} "
                    "is passed as written (name the variable after the key to forward it)"
                )
            status, message, left = _configure_one(
                server,
                target,
                scope,
                places,
                cli,
                was_configured=(server.name, target) in (recorded or {}),
                recorded=(recorded or {}).get((server.name, target)),
                force=force,
            )
            (notices if status is Status.INSTALLED else warnings).append(message)
            records.append(McpRecord(server.name, target, scope, bundle, status, left))
    return McpReport(tuple(records), tuple(notices), tuple(warnings))
