"""Pure per-target shaping: config entries, CLI argument lists, config locations.

Every client spells the same server differently (reference notes §6); keeping
all the spellings here means configure, unregister and reconcile cannot
disagree about them.
"""

from __future__ import annotations

import json
import re

from upskill.clientconf.places import ConfigLocation, Places, Scope, opencode_config
from upskill.mcp.model import LocalTransport, McpServer, RemoteTransport, Target

# The executable each target's CLI is called by; opencode has no MCP verb.
CLI_NAME: dict[Target, str | None] = {
    Target.CLAUDE: "claude",
    Target.COPILOT: "copilot",
    Target.VSCODE: "code",
    Target.OPENCODE: None,
}

ROOT_KEY: dict[Target, str] = {
    Target.CLAUDE: "mcpServers",
    Target.COPILOT: "mcpServers",
    Target.VSCODE: "servers",
    Target.OPENCODE: "mcp",
}


_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]*\Z")
_ENV_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\Z")
# An RFC 9110 (7230) token that does not start with `-`, so it can never read as an option.
_HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z][!#$%&'*+.^_`|~0-9A-Za-z-]*\Z")

# How each CLI spells the env and header options (Copilot CLI accepts only the long forms).
_ENV_FLAG = {Target.CLAUDE: "-e", Target.COPILOT: "--env"}
_HEADER_FLAG = {Target.CLAUDE: "-H", Target.COPILOT: "--header"}


def name_problem(name: str) -> str | None:
    """Why a server name may not reach a client CLI, or None (install and remove side)."""
    if not _SAFE_NAME.match(name):
        return f"invalid server name {name!r} (letters, digits, '.', '_', '-', '@')"
    return None


def argument_problem(server: McpServer) -> str | None:
    """Why a server cannot be passed to a client CLI safely, or None.

    The name and a remote URL are positional arguments, env keys and header
    names start an option's value: anything that could be read as an option
    (argument injection from a bundle: `--scope`) or that the client would
    mangle is refused before an argument list is built.
    """
    problem = name_problem(server.name)
    if problem is not None:
        return problem
    t = server.transport
    if isinstance(t, RemoteTransport):
        if not t.url.startswith(("https://", "http://")):
            return f"remote url {t.url!r} must start with https:// or http://"
        bad = [k for k, _ in t.headers if not _HEADER_NAME.match(k)]
        if bad:
            return f"invalid header name {bad[0]!r} (an HTTP token, not starting with '-')"
        return None
    bad = [k for k, _ in t.env if not _ENV_KEY.match(k)]
    if bad:
        return f"invalid environment variable name {bad[0]!r} ([A-Za-z_][A-Za-z0-9_]*)"
    return None


_ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


def opencode_refs(value: str) -> str:
    """`${VAR}` in opencode's own spelling, `{env:VAR}`: opencode does not expand `${VAR}`,
    so a token written that way reaches the server literally. Never expanded here."""
    return _ENV_REF.sub(r"{env:\1}", value)


def config_entry(server: McpServer, target: Target) -> dict[str, object]:
    """The JSON value stored under the target's root key for this server."""
    t = server.transport
    if isinstance(t, LocalTransport):
        if target is Target.OPENCODE:
            entry: dict[str, object] = {"type": "local", "command": [t.command, *t.args]}
            if t.env:
                entry["environment"] = {k: opencode_refs(v) for k, v in t.env}
            return entry
        # Claude Code's own `claude mcp add` writes `"type": "stdio"` (2.1.197): so do we,
        # and Copilot CLI (1.0.102) reads the same entry from the same `.mcp.json`
        entry = {"type": "stdio"}
        entry["command"] = t.command
        if t.args:
            entry["args"] = list(t.args)
        if t.env:
            entry["env"] = dict(t.env)
        return entry
    kind = "remote" if target is Target.OPENCODE else t.type
    entry = {"type": kind, "url": t.url}
    if t.headers:
        refs = opencode_refs if target is Target.OPENCODE else str
        entry["headers"] = {k: refs(v) for k, v in t.headers}
    return entry


def add_argv(server: McpServer, target: Target, scope: Scope) -> list[str] | None:
    """The native `add` command, or None when the target has no usable CLI verb.

    `code --add-mcp` and `copilot mcp add` only write the user's config, so VS
    Code's and Copilot's project scope is configured through the file directly
    (issue 14: a project install leaked its servers into `~/.copilot`).
    """
    if target is Target.VSCODE:
        if scope is not Scope.USER:
            return None
        payload = {"name": server.name, **config_entry(server, target)}
        return ["code", "--add-mcp", json.dumps(payload, separators=(",", ":"))]
    if target not in (Target.CLAUDE, Target.COPILOT):
        return None
    if target is Target.COPILOT and scope is Scope.PROJECT:
        return None  # `copilot mcp add` writes the user's config only: the file is the route
    exe = CLI_NAME[target]
    assert exe is not None
    scope_args = ["--scope", scope.value] if target is Target.CLAUDE else []
    t = server.transport
    if isinstance(t, RemoteTransport):
        argv = [exe, "mcp", "add", "--transport", t.type, server.name, t.url, *scope_args]
        for key, value in t.headers:
            argv += [_HEADER_FLAG[target], f"{key}: {value}"]
        return argv
    argv = [exe, "mcp", "add", server.name, *scope_args]
    for key, value in t.env:
        argv += [_ENV_FLAG[target], f"{key}={value}"]
    return [*argv, "--", t.command, *t.args]


def remove_argv(name: str, target: Target, scope: Scope) -> list[str] | None:
    """The native `remove` command (Claude and Copilot only)."""
    if target is Target.CLAUDE:
        return ["claude", "mcp", "remove", name, "--scope", scope.value]
    if target is Target.COPILOT and scope is Scope.USER:
        return ["copilot", "mcp", "remove", name]
    return None  # copilot's project servers live in `.mcp.json`, edited directly


def list_argv(target: Target) -> list[str] | None:
    """The native listing used by doctor (Claude only, per the book)."""
    return ["claude", "mcp", "list"] if target is Target.CLAUDE else None


def config_location(target: Target, scope: Scope, places: Places) -> ConfigLocation | None:
    """The config file a target reads for a scope, or None when there is none.

    Global scope uses each client's real user-level file rather than upstream's
    `$HOME/<project file>` (ADR-0010 admits those are not read by the clients).
    Copilot reads a project's servers from `.mcp.json` (the file Claude Code
    uses too; `copilot mcp list` shows them as workspace servers), so both
    clients share that entry, written in the same shape.
    """
    key = ROOT_KEY[target]
    if target is Target.CLAUDE:
        if scope is Scope.PROJECT:
            return ConfigLocation(places.root / ".mcp.json", key, within=places.root)
        return ConfigLocation(places.home / ".claude.json", key)
    if target is Target.COPILOT:
        if scope is Scope.PROJECT:  # Copilot CLI 1.0.102 lists `.mcp.json` as workspace servers
            return ConfigLocation(places.root / ".mcp.json", key, within=places.root)
        return ConfigLocation(places.home / ".copilot" / "mcp-config.json", key)
    if target is Target.VSCODE:
        if scope is Scope.PROJECT:
            return ConfigLocation(places.root / ".vscode" / "mcp.json", key, within=places.root)
        base = (
            places.home / "Library" / "Application Support" if places.macos else places.config_home
        )
        return ConfigLocation(base / "Code" / "User" / "mcp.json", key)
    return opencode_config(scope, places, key)


def doctor_location(target: Target, scope: Scope, places: Places) -> ConfigLocation | None:
    """The file doctor (and ownership) checks: where the entry lives."""
    return config_location(target, scope, places)
