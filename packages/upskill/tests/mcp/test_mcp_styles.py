"""One server, every client's spelling: the entry each MCP route stores, and the values
a client would pass literally (reported, never expanded here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from upskill.clientconf.places import Places, Scope
from upskill.clients import MCP_CLIENTS
from upskill.mcp.model import server_from_values
from upskill.mcp.shapes import config_entry, config_location, transport_problem, unexpanded

LOCAL = server_from_values(
    "gh",
    local={"command": "srv", "args": ["-x"], "env": {"TOKEN": "${TOKEN}", "URL": "${DB}"}},
)
HTTP = server_from_values(
    "api",
    remote={"type": "http", "url": "https://a.example/mcp", "headers": {"K": "${KEY}"}},
)
SSE = server_from_values("feed", remote={"type": "sse", "url": "https://a.example/sse"})

PLAIN_LOCAL = {"command": "srv", "args": ["-x"], "env": {"TOKEN": "${TOKEN}", "URL": "${DB}"}}
EXPECTED: dict[str, tuple[dict[str, object], dict[str, object]]] = {
    "cursor": (
        {"command": "srv", "args": ["-x"], "env": {"TOKEN": "${env:TOKEN}", "URL": "${env:DB}"}},
        {"url": "https://a.example/mcp", "headers": {"K": "${env:KEY}"}},
    ),
    "windsurf": (
        {"command": "srv", "args": ["-x"], "env": {"TOKEN": "${env:TOKEN}", "URL": "${env:DB}"}},
        {"serverUrl": "https://a.example/mcp", "headers": {"K": "${env:KEY}"}},
    ),
    "cline": (PLAIN_LOCAL, {"url": "https://a.example/mcp", "headers": {"K": "${KEY}"}}),
    "kilo": (
        {"type": "local", "command": ["srv", "-x"], "environment": {"URL": "${DB}"}},
        {"type": "remote", "url": "https://a.example/mcp", "headers": {"K": "${KEY}"}},
    ),
    "roo": (
        {"command": "srv", "args": ["-x"], "env": {"TOKEN": "${env:TOKEN}", "URL": "${env:DB}"}},
        {"type": "streamable-http", "url": "https://a.example/mcp", "headers": {"K": "${env:KEY}"}},
    ),
    "kiro": (PLAIN_LOCAL, {"url": "https://a.example/mcp", "headers": {"K": "${KEY}"}}),
    "qwen": (
        {"command": "srv", "args": ["-x"], "env": {"URL": "${DB}"}},
        {"httpUrl": "https://a.example/mcp", "headers": {"K": "${KEY}"}},
    ),
    "junie": (PLAIN_LOCAL, {"url": "https://a.example/mcp", "headers": {"K": "${KEY}"}}),
    "amp": (PLAIN_LOCAL, {"url": "https://a.example/mcp", "headers": {"K": "${KEY}"}}),
    "zed": (PLAIN_LOCAL, {"url": "https://a.example/mcp", "headers": {"K": "${KEY}"}}),
    "augment": (
        {"type": "stdio", **PLAIN_LOCAL},
        {"type": "http", "url": "https://a.example/mcp", "headers": {"K": "${KEY}"}},
    ),
    "factory": (
        {"type": "stdio", **PLAIN_LOCAL},
        {"type": "http", "url": "https://a.example/mcp", "headers": {"K": "${KEY}"}},
    ),
    # Crush shell-expands `env` and `headers` and its stdio servers inherit its
    # environment: `TOKEN: ${TOKEN}` is left out.
    "crush": (
        {"type": "stdio", "command": "srv", "args": ["-x"], "env": {"URL": "${DB}"}},
        {"type": "http", "url": "https://a.example/mcp", "headers": {"K": "${KEY}"}},
    ),
}
# Clients that expand no `${VAR}`: what they would receive literally.
LITERAL = {
    "cline": (["TOKEN", "URL"], ["K"]),
    "kilo": (["URL"], ["K"]),
    "junie": (["TOKEN", "URL"], ["K"]),
    "amp": (["TOKEN", "URL"], ["K"]),
    "zed": (["TOKEN", "URL"], ["K"]),
    "factory": (["TOKEN", "URL"], ["K"]),
    "augment": ([], ["K"]),  # its stdio env is expanded, its headers are not
}


@pytest.mark.parametrize("client", sorted(EXPECTED))
def test_entry_in_the_clients_spelling(client: str) -> None:
    local, remote = EXPECTED[client]
    assert config_entry(LOCAL, client) == local
    assert config_entry(HTTP, client) == remote
    literal = LITERAL.get(client, ([], []))
    assert (unexpanded(LOCAL, client), unexpanded(HTTP, client)) == literal


def test_every_mcp_client_has_a_location_for_some_scope(tmp_path: Path) -> None:
    places = Places(root=tmp_path / "p", home=tmp_path / "h", config_home=tmp_path / "c")
    for client in MCP_CLIENTS:
        found = [config_location(client, s, places) for s in Scope]
        assert any(found), client


def test_user_only_clients_have_no_project_file(tmp_path: Path) -> None:
    places = Places(root=tmp_path / "p", home=tmp_path / "h", config_home=tmp_path / "c")
    for client in ("windsurf", "cline"):
        assert config_location(client, Scope.PROJECT, places) is None
    windsurf = config_location("windsurf", Scope.USER, places)
    assert windsurf is not None
    assert windsurf.path == tmp_path / "h/.codeium/windsurf/mcp_config.json"
    amp = config_location("amp", Scope.USER, places)
    assert amp is not None and amp.root_key == "amp.mcpServers"
    assert amp.path == tmp_path / "c/amp/settings.json"


def test_sse_where_a_client_has_none() -> None:
    assert transport_problem(SSE, "zed") == "zed does not support sse servers (only http)"
    assert config_entry(SSE, "qwen") == {"url": "https://a.example/sse"}
    assert config_entry(SSE, "roo") == {"type": "sse", "url": "https://a.example/sse"}
    assert config_entry(SSE, "crush") == {"type": "sse", "url": "https://a.example/sse"}
