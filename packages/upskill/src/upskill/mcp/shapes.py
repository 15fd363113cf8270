"""Pure per-target shaping: config entries, CLI argument lists, config locations.

Every client spells the same server differently (reference notes §6); keeping
all the spellings here means configure, unregister and reconcile cannot
disagree about them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator

from upskill.clientconf.places import ConfigLocation, Places, Scope, locate
from upskill.clients import get
from upskill.clients.base import EntryStyle, McpCli, McpRoute
from upskill.mcp import shellvalue
from upskill.mcp.model import LocalTransport, McpServer, RemoteTransport


def route(client: str) -> McpRoute:
    """A client's MCP route; a client without one is a caller's bug, never a fallback."""
    found = get(client).mcp
    if found is None:
        raise KeyError(f"{client} takes no MCP servers")
    return found


def cli_name(client: str) -> str | None:
    """The executable a client's MCP verbs are called by, or None (file route only)."""
    cli = route(client).cli
    return cli.exe if cli is not None else None


_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]*\Z")
_ENV_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\Z")
# An RFC 9110 (7230) token that does not start with `-`, so it can never read as an option.
_HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z][!#$%&'*+.^_`|~0-9A-Za-z-]*\Z")


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


def refs(value: str, template: str | None) -> str:
    """`${VAR}` in a client's own spelling (`{env:VAR}` for opencode, `${env:VAR}` for
    Cursor): a client that does not expand `${VAR}` passes it to the server literally.
    Never expanded here."""
    if template is None or template == "${NAME}":
        return value
    return _ENV_REF.sub(lambda m: template.replace("NAME", m.group(1)), value)


def _literal(value: str) -> str:
    return value


def _shaper(found: McpRoute) -> Callable[[str], str]:
    """How a value the client passes to a server is written: as it is, or escaped for a
    client that shell-expands it (raising `shellvalue.Unexpressible` when it cannot be)."""
    return shellvalue.for_shell if found.shell_expands else _literal


def _passed_values(server: McpServer) -> Iterator[tuple[str, str]]:
    """(field, value) for every value a client passes to the server, as errors name it."""
    t = server.transport
    if isinstance(t, LocalTransport):
        yield "command", t.command
        yield from ((f"args[{i}]", a) for i, a in enumerate(t.args))
        yield from ((f"env.{k}", v) for k, v in t.env)
    else:
        yield "url", t.url
        yield from ((f"headers.{k}", v) for k, v in t.headers)


def shell_problem(server: McpServer, target: str) -> str | None:
    """Why a client that shell-expands MCP values cannot be given this server, naming the
    first field at fault, or None (also None for every client that expands nothing)."""
    if not route(target).shell_expands:
        return None
    for field, value in _passed_values(server):
        try:
            shellvalue.for_shell(value)
        except shellvalue.Unexpressible as exc:
            return f"{field} {exc}"
    return None


def config_entry(server: McpServer, target: str) -> dict[str, object]:
    """The value stored under the client's root key for this server. For a client that
    shell-expands values, a server `shell_problem` refuses raises `Unexpressible`."""
    found = route(target)
    style, t = found.style, server.transport
    if style is EntryStyle.CODEX:
        return codex_entry(server)
    shape = _shaper(found)
    if isinstance(t, LocalTransport):
        env = {
            k: shape(refs(v, found.env_ref))
            for k, v in t.env
            if not (found.inherits_env and _self_ref(k, v))
        }
        if style is EntryStyle.OPENCODE:
            entry: dict[str, object] = {
                "type": "local",
                "command": [shape(t.command), *(shape(a) for a in t.args)],
            }
            if env:
                entry["environment"] = env
            return entry
        # Claude Code's own `claude mcp add` writes `"type": "stdio"` (2.1.197): so do we,
        # and Copilot CLI (1.0.102) reads the same entry from the same `.mcp.json`
        entry = {"type": "stdio"} if style is EntryStyle.STANDARD else {}
        entry["command"] = shape(t.command)
        if t.args:
            entry["args"] = [shape(a) for a in t.args]
        if env:
            entry["env"] = env
        return entry
    entry = _remote_head(t, style, shape(t.url))
    if t.headers:
        entry["headers"] = {k: shape(refs(v, found.env_ref)) for k, v in t.headers}
    return entry


def _remote_head(t: RemoteTransport, style: EntryStyle, url: str) -> dict[str, object]:
    """The transport and URL keys of a remote entry, in the client's spelling (`url` as
    written for the client)."""
    if style is EntryStyle.OPENCODE:
        return {"type": "remote", "url": url}
    if style is EntryStyle.PLAIN:
        return {"url": url}
    if style is EntryStyle.HTTPURL:
        return {"httpUrl": url} if t.type == "http" else {"url": url}
    if style is EntryStyle.SERVERURL:
        return {"serverUrl": url}
    if style is EntryStyle.STREAMABLE:
        return {"type": "streamable-http" if t.type == "http" else t.type, "url": url}
    return {"type": t.type, "url": url}


def _self_ref(key: str, value: str) -> bool:
    return value == f"${{{key}}}"


def codex_entry(server: McpServer) -> dict[str, object]:
    """A `[mcp_servers.<name>]` table. Codex does not expand `${VAR}`: a value that is
    exactly `${KEY}` becomes a forwarded variable (`env_vars`), a header `${VAR}` an
    `env_http_headers` entry, `Authorization: Bearer ${VAR}` the `bearer_token_env_var`;
    any other value is written as given (never expanded here)."""
    t = server.transport
    if isinstance(t, LocalTransport):
        entry: dict[str, object] = {"command": t.command}
        if t.args:
            entry["args"] = list(t.args)
        literal = {k: v for k, v in t.env if not _self_ref(k, v)}
        forwarded = [k for k, v in t.env if _self_ref(k, v)]
        if literal:
            entry["env"] = literal
        if forwarded:
            entry["env_vars"] = forwarded
        return entry
    entry = {"url": t.url}
    headers: dict[str, str] = {}
    from_env: dict[str, str] = {}
    for key, value in t.headers:
        bearer = _BEARER.match(value) if key.lower() == "authorization" else None
        whole = _ENV_REF.fullmatch(value)
        if bearer is not None:
            entry["bearer_token_env_var"] = bearer.group(1)
        elif whole is not None:
            from_env[key] = whole.group(1)
        else:
            headers[key] = value
    if headers:
        entry["http_headers"] = headers
    if from_env:
        entry["env_http_headers"] = from_env
    return entry


_BEARER = re.compile(r"Bearer \$\{([A-Za-z_][A-Za-z0-9_]*)\}\Z")


# The members of an entry holding values the client passes to the server (env or headers).
_VALUE_MAPS = ("env", "environment", "headers", "http_headers")


def unexpanded(server: McpServer, target: str) -> list[str]:
    """The keys whose values a client will pass literally although they hold `${VAR}`: read
    off the entry `config_entry` writes for a client that expands no reference, so every
    form it translates (Codex's `env_vars`, an inherited `KEY: ${KEY}` left out) is not
    reported."""
    found = route(target)
    members: tuple[str, ...]
    if found.env_ref is None:
        members = _VALUE_MAPS
    elif not found.expands_headers:
        members = ("headers",)
    else:
        return []
    entry = config_entry(server, target)
    return [
        key
        for member in members
        if isinstance(values := entry.get(member), dict)
        for key, value in values.items()
        if _ENV_REF.search(str(value))
    ]


def transport_problem(server: McpServer, target: str) -> str | None:
    """Why a client cannot take this server's transport (Codex has no SSE), or None."""
    t = server.transport
    found = route(target)
    if isinstance(t, RemoteTransport) and t.type not in found.remote_types:
        supported = ", ".join(found.remote_types)
        return f"{target} does not support {t.type} servers (only {supported})"
    return None


def add_argv(server: McpServer, target: str, scope: Scope) -> list[str] | None:
    """The native `add` command, or None when the client's CLI does not write this
    scope (then the config file is the route).

    `code --add-mcp` and `copilot mcp add` only write the user's config, so VS
    Code's and Copilot's project scope is configured through the file directly
    (issue 14: a project install leaked its servers into `~/.copilot`).
    """
    cli = route(target).cli
    if cli is None or scope.value not in cli.add_scopes:
        return None
    if cli.add_payload:
        payload = {"name": server.name, **config_entry(server, target)}
        return [cli.exe, "--add-mcp", json.dumps(payload, separators=(",", ":"))]
    scope_args = _scope_args(cli, scope)
    t = server.transport
    if isinstance(t, RemoteTransport):
        argv = [cli.exe, "mcp", "add", "--transport", t.type, server.name, t.url, *scope_args]
        for key, value in t.headers:
            argv += [cli.header_flag, f"{key}: {value}"]
        return argv
    argv = [cli.exe, "mcp", "add", server.name, *scope_args]
    for key, value in t.env:
        argv += [cli.env_flag, f"{key}={value}"]
    return [*argv, "--", t.command, *t.args]


def _scope_args(cli: McpCli, scope: Scope) -> list[str]:
    return ["--scope", scope.value] if cli.scope_flag else []


def remove_argv(name: str, target: str, scope: Scope) -> list[str] | None:
    """The native `remove` command, or None when the file is edited instead."""
    cli = route(target).cli
    if cli is None or scope.value not in cli.remove_scopes:
        return None
    return [cli.exe, "mcp", "remove", name, *_scope_args(cli, scope)]


def list_argv(target: str) -> list[str] | None:
    """The native listing doctor asks (Claude only, per the book), or None."""
    cli = route(target).cli
    return [cli.exe, "mcp", "list"] if cli is not None and cli.lists else None


def config_location(target: str, scope: Scope, places: Places) -> ConfigLocation | None:
    """The config file a client reads for a scope, or None when there is none.

    Global scope uses each client's real user-level file rather than upstream's
    `$HOME/<project file>` (ADR-0010 admits those are not read by the clients).
    """
    found = route(target)
    file = found.project if scope is Scope.PROJECT else found.user
    return None if file is None else locate(file, found.root_key, places)


def doctor_location(target: str, scope: Scope, places: Places) -> ConfigLocation | None:
    """The file doctor (and ownership) checks: where the entry lives."""
    return config_location(target, scope, places)
