"""Bundle `plugins:` and `mcps:` maps (format spec §3.7), parsed into typed values.

These are consumed by the MCP and plugin installers, so every shape rule is
checked here: descriptor form per client, exactly one MCP transport,
non-empty url/command, string-valued headers and env (kept verbatim, `${VAR}`
never expanded).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from upskill.clients import PLUGIN_CLIENTS, get
from upskill.clients.base import PluginStyle
from upskill.format.fields import Fields
from upskill.format.model import (
    McpLocal,
    McpRemote,
    McpServer,
    Plugin,
    PluginConfigWrite,
    PluginDescriptor,
    PluginExtension,
    PluginInstructions,
    PluginMarketplace,
    PluginModule,
)

MCP_REMOTE_TYPES: tuple[str, ...] = ("http", "sse")

# plugin style -> auto-install forms: (required keys, optional keys, constructor)
_AUTO_FORMS: dict[PluginStyle, tuple[tuple[tuple[str, ...], tuple[str, ...], Any], ...]] = {
    PluginStyle.MARKETPLACE: (
        (("source", "marketplace", "plugin"), ("install_url",), PluginMarketplace),
    ),
    PluginStyle.EXTENSION: ((("extension",), ("install_url",), PluginExtension),),
    PluginStyle.OPENCODE: (
        (("module",), ("install_url",), PluginModule),
        (("plugin_uri",), ("install_url",), PluginConfigWrite),
    ),
}
_INSTRUCTIONS = (("instructions_url",), ("summary",), PluginInstructions)


def _plugin_style(client: str) -> PluginStyle:
    route = get(client).plugins
    assert route is not None  # parse_plugins admits PLUGIN_CLIENTS only
    return route.style


def _strings(fields: Fields, where: str, block: Mapping[str, Any]) -> dict[str, str]:
    for key, value in block.items():
        if type(value) is not str or not value.strip():
            raise fields.error(where.split(".")[0], f"'{where}.{key}' must be a non-empty string")
    return dict(block)


def _descriptor(
    fields: Fields, where: str, client: str, block: Mapping[str, Any]
) -> tuple[PluginDescriptor, str | None]:
    values = _strings(fields, where, block)
    style = _plugin_style(client)
    forms = (*_AUTO_FORMS[style], _INSTRUCTIONS)
    allowed = {k for required, optional, _ in forms for k in (*required, *optional)}
    unknown = sorted(set(values) - allowed)
    if unknown:
        raise fields.error("plugins", f"'{where}' has unknown key(s): {', '.join(unknown)}")
    for required, optional, build in forms:
        if all(k in values for k in required):
            chosen = {k: values[k] for k in (*required, *optional) if k in values}
            warning = None
            if build is not PluginInstructions and "instructions_url" in values:
                warning = f"'{where}' mixes install and instructions fields; the install form wins"
            elif build is PluginModule and "plugin_uri" in values:
                warning = f"'{where}' has both module and plugin_uri; the module form wins"
            descriptor: PluginDescriptor = build(**chosen)
            return descriptor, warning
    needs = " or ".join("+".join(required) for required, _, _ in forms)
    missing_hint = ""
    if style is PluginStyle.MARKETPLACE and "marketplace" not in values and "source" in values:
        missing_hint = (
            " ('marketplace' is the registered marketplace name, required besides 'source')"
        )
    raise fields.error("plugins", f"'{where}' needs {needs}{missing_hint}")


def parse_plugins(fields: Fields) -> tuple[tuple[Plugin, ...], tuple[str, ...]]:
    raw = fields.mapping("plugins")
    if raw is None:
        return (), ()
    plugins: list[Plugin] = []
    warnings: list[str] = []
    for name, clients in raw.items():
        where = f"plugins.{name}"
        block = fields.mapping("plugins", value=clients if clients is not None else [])
        assert block is not None
        if not block:
            raise fields.error("plugins", f"'{where}' must declare at least one client block")
        descriptors: dict[str, PluginDescriptor] = {}
        for client, descriptor in block.items():
            if client not in PLUGIN_CLIENTS:
                raise fields.error(
                    "plugins",
                    f"'{where}' has unknown client {client!r} (known: {', '.join(PLUGIN_CLIENTS)})",
                )
            body = fields.mapping("plugins", value=descriptor if descriptor is not None else [])
            assert body is not None
            parsed, warning = _descriptor(fields, f"{where}.{client}", client, body)
            descriptors[client] = parsed
            if warning:
                warnings.append(warning)
        plugins.append(Plugin(name, descriptors))
    return tuple(plugins), tuple(warnings)


def _string_map(fields: Fields, where: str, value: Any) -> dict[str, str]:
    if value is None:
        return {}
    block = fields.mapping("mcps", value=value)
    assert block is not None
    for key, item in block.items():
        if type(item) is not str:
            raise fields.error("mcps", f"'{where}.{key}' must be a string")
    return dict(block)


def _transport(fields: Fields, where: str, entry: Mapping[str, Any]) -> McpRemote | McpLocal:
    has_remote, has_local = "remote" in entry, "local" in entry
    if has_remote == has_local:
        raise fields.error("mcps", f"'{where}' needs exactly one of 'remote' or 'local'")
    if has_remote:
        remote = fields.mapping(
            "mcps", value=entry["remote"] if entry["remote"] is not None else []
        )
        assert remote is not None
        unknown = sorted(set(remote) - {"type", "url", "headers"})
        if unknown:
            raise fields.error("mcps", f"'{where}.remote' has unknown key(s): {', '.join(unknown)}")
        kind = remote.get("type")
        if kind not in MCP_REMOTE_TYPES:
            raise fields.error(
                "mcps", f"'{where}.remote.type' must be one of {', '.join(MCP_REMOTE_TYPES)}"
            )
        url = remote.get("url")
        if type(url) is not str or not url.strip():
            raise fields.error("mcps", f"'{where}.remote.url' must be a non-empty string")
        return McpRemote(
            kind, url, _string_map(fields, f"{where}.remote.headers", remote.get("headers"))
        )
    local = fields.mapping("mcps", value=entry["local"] if entry["local"] is not None else [])
    assert local is not None
    unknown = sorted(set(local) - {"command", "args", "env"})
    if unknown:
        raise fields.error("mcps", f"'{where}.local' has unknown key(s): {', '.join(unknown)}")
    command = local.get("command")
    if type(command) is not str or not command.strip():
        raise fields.error("mcps", f"'{where}.local.command' must be a non-empty string")
    args = local.get("args") or []
    if not isinstance(args, list) or any(type(a) is not str for a in args):
        raise fields.error("mcps", f"'{where}.local.args' must be a list of strings")
    return McpLocal(
        command, tuple(args), _string_map(fields, f"{where}.local.env", local.get("env"))
    )


def parse_mcps(fields: Fields) -> tuple[McpServer, ...]:
    raw = fields.mapping("mcps")
    if raw is None:
        return ()
    servers: list[McpServer] = []
    for name, entry in raw.items():
        where = f"mcps.{name}"
        body = fields.mapping("mcps", value=entry if entry is not None else [])
        assert body is not None
        unknown = sorted(set(body) - {"remote", "local", "requires-env"})
        if unknown:
            raise fields.error("mcps", f"'{where}' has unknown key(s): {', '.join(unknown)}")
        requires_env = fields.string_list("mcps", value=body.get("requires-env") or []) or ()
        servers.append(McpServer(name, _transport(fields, where, body), requires_env))
    return tuple(servers)
