"""Typed values for bundle MCP servers and their lockfile records.

The server spec is our own small value type (not the bundle model's) so the
per-target shaping stays pure and testable without a parsed bundle; `from_bundle`
adapts the format package's typed `mcps` values.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from upskill.clientconf.places import Scope

if TYPE_CHECKING:
    from upskill.format.model import McpServer as FormatServer


class Status(enum.StrEnum):
    INSTALLED = "installed"
    SKIPPED = "skipped"


@dataclass(frozen=True)
class LocalTransport:
    """A server the client spawns over stdio."""

    command: str
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class RemoteTransport:
    """A running server reached over HTTP or SSE."""

    type: str
    url: str
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class McpServer:
    """One `mcps:` entry of a bundle. Values such as `${TOKEN}` are kept verbatim."""

    name: str
    transport: LocalTransport | RemoteTransport
    requires_env: tuple[str, ...] = ()


@dataclass(frozen=True)
class McpRecord:
    """A lockfile `mcps[]` entry: upserted by `(name, client)`."""

    name: str
    client: str  # a client id with an MCP route (`clients.MCP_CLIENTS`)
    scope: Scope
    bundle: str
    status: Status
    sha256: str | None = None  # the config entry as upskill left it (`mcp/ownership.py`)


def _pairs(value: object) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if isinstance(value, Mapping):
        return tuple((str(k), str(v)) for k, v in value.items())
    return tuple((str(k), str(v)) for k, v in value)  # type: ignore[attr-defined]


def server_from_values(
    name: str,
    *,
    local: Mapping[str, object] | None = None,
    remote: Mapping[str, object] | None = None,
    requires_env: tuple[str, ...] = (),
) -> McpServer:
    """Build a server from plain mappings (the shape of a bundle's `mcps:` entry)."""
    transport: LocalTransport | RemoteTransport
    if local is not None:
        args = local.get("args") or ()
        transport = LocalTransport(
            command=str(local["command"]),
            args=tuple(str(a) for a in args),  # type: ignore[attr-defined]
            env=_pairs(local.get("env")),
        )
    elif remote is not None:
        transport = RemoteTransport(
            type=str(remote["type"]),
            url=str(remote["url"]),
            headers=_pairs(remote.get("headers")),
        )
    else:
        raise ValueError(f"mcp server {name!r} has neither local nor remote transport")
    return McpServer(name=name, transport=transport, requires_env=tuple(requires_env))


def from_format(server: FormatServer) -> McpServer:
    """Adapt the format package's typed `mcps` entry (same data, hashable and ordered)."""
    from upskill.format.model import McpLocal

    t = server.transport
    if isinstance(t, McpLocal):
        return server_from_values(
            server.name,
            local={"command": t.command, "args": t.args, "env": t.env},
            requires_env=server.requires_env,
        )
    return server_from_values(
        server.name,
        remote={"type": t.type, "url": t.url, "headers": t.headers},
        requires_env=server.requires_env,
    )
