"""Per-target config entries, CLI argument lists and config locations (reference notes §6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from upskill.clientconf.places import Places, Scope
from upskill.mcp.model import McpServer, server_from_values
from upskill.mcp.shapes import (
    add_argv,
    argument_problem,
    config_entry,
    config_location,
    remove_argv,
)

LOCAL = server_from_values(
    "my-tool",
    local={"command": "npx", "args": ["-y", "my-tool-mcp"], "env": {"API_KEY": "${MY_KEY}"}},
    requires_env=("MY_KEY",),
)
REMOTE = server_from_values(
    "drawio",
    remote={
        "type": "http",
        "url": "https://mcp.draw.io/mcp",
        "headers": {"Authorization": "Bearer ${DRAWIO_TOKEN}"},
    },
)
BARE = server_from_values("bare", local={"command": "bare-bin"})
PLACES = Places(root=Path("/p"), home=Path("/h"), config_home=Path("/h/.config"))


@pytest.mark.parametrize(
    ("server", "target", "expected"),
    [
        (LOCAL, "claude",  # as `claude mcp add` writes it: with "type": "stdio"
         {"type": "stdio", "command": "npx", "args": ["-y", "my-tool-mcp"],
          "env": {"API_KEY": "${MY_KEY}"}}),
        (LOCAL, "copilot",
         {"type": "stdio", "command": "npx", "args": ["-y", "my-tool-mcp"],
          "env": {"API_KEY": "${MY_KEY}"}}),
        (LOCAL, "vscode",
         {"type": "stdio", "command": "npx", "args": ["-y", "my-tool-mcp"],
          "env": {"API_KEY": "${MY_KEY}"}}),
        (LOCAL, "opencode",
         {"type": "local", "command": ["npx", "-y", "my-tool-mcp"],
          "environment": {"API_KEY": "{env:MY_KEY}"}}),  # opencode's own spelling
        (REMOTE, "claude",
         {"type": "http", "url": "https://mcp.draw.io/mcp",
          "headers": {"Authorization": "Bearer ${DRAWIO_TOKEN}"}}),
        (REMOTE, "vscode",
         {"type": "http", "url": "https://mcp.draw.io/mcp",
          "headers": {"Authorization": "Bearer ${DRAWIO_TOKEN}"}}),
        (REMOTE, "opencode",
         {"type": "remote", "url": "https://mcp.draw.io/mcp",
          "headers": {"Authorization": "Bearer {env:DRAWIO_TOKEN}"}}),
        (BARE, "claude", {"type": "stdio", "command": "bare-bin"}),
        (BARE, "vscode", {"type": "stdio", "command": "bare-bin"}),
        (BARE, "opencode", {"type": "local", "command": ["bare-bin"]}),
    ],
)  # fmt: skip
def test_config_entry_shape(server: McpServer, target: str, expected: dict[str, object]) -> None:
    assert config_entry(server, target) == expected
    assert list(config_entry(server, target)) == list(expected)


def test_claude_local_argv_project_and_user() -> None:
    assert add_argv(LOCAL, "claude", Scope.PROJECT) == [
        "claude", "mcp", "add", "my-tool", "--scope", "project",
        "-e", "API_KEY=${MY_KEY}", "--", "npx", "-y", "my-tool-mcp",
    ]  # fmt: skip
    assert add_argv(BARE, "claude", Scope.USER) == [
        "claude", "mcp", "add", "bare", "--scope", "user", "--", "bare-bin",
    ]  # fmt: skip


def test_claude_and_copilot_remote_argv() -> None:
    assert add_argv(REMOTE, "claude", Scope.USER) == [
        "claude", "mcp", "add", "--transport", "http", "drawio", "https://mcp.draw.io/mcp",
        "--scope", "user", "-H", "Authorization: Bearer ${DRAWIO_TOKEN}",
    ]  # fmt: skip
    assert add_argv(REMOTE, "copilot", Scope.PROJECT) is None  # the file route
    assert add_argv(REMOTE, "copilot", Scope.USER) == [
        "copilot", "mcp", "add", "--transport", "http", "drawio", "https://mcp.draw.io/mcp",
        "--header", "Authorization: Bearer ${DRAWIO_TOKEN}",
    ]  # fmt: skip
    # Copilot CLI 1.0.102 accepts only the long forms ("unexpected argument '-e' found")
    assert add_argv(LOCAL, "copilot", Scope.USER) == [
        "copilot", "mcp", "add", "my-tool", "--env", "API_KEY=${MY_KEY}",
        "--", "npx", "-y", "my-tool-mcp",
    ]  # fmt: skip


def test_vscode_cli_only_for_user_scope_and_opencode_never() -> None:
    assert add_argv(LOCAL, "vscode", Scope.PROJECT) is None
    assert add_argv(LOCAL, "vscode", Scope.USER) == [
        "code",
        "--add-mcp",
        '{"name":"my-tool","type":"stdio","command":"npx","args":["-y","my-tool-mcp"],'
        '"env":{"API_KEY":"${MY_KEY}"}}',
    ]
    assert add_argv(LOCAL, "opencode", Scope.PROJECT) is None


def test_remove_argv() -> None:
    assert remove_argv("x", "claude", Scope.PROJECT) == [
        "claude", "mcp", "remove", "x", "--scope", "project",
    ]  # fmt: skip
    assert remove_argv("x", "copilot", Scope.USER) == ["copilot", "mcp", "remove", "x"]
    assert remove_argv("x", "vscode", Scope.USER) is None
    assert remove_argv("x", "opencode", Scope.USER) is None


@pytest.mark.parametrize(
    ("target", "scope", "path", "key"),
    [
        ("claude", Scope.PROJECT, "/p/.mcp.json", "mcpServers"),
        ("claude", Scope.USER, "/h/.claude.json", "mcpServers"),
        ("copilot", Scope.USER, "/h/.copilot/mcp-config.json", "mcpServers"),
        ("vscode", Scope.PROJECT, "/p/.vscode/mcp.json", "servers"),
        ("vscode", Scope.USER, "/h/.config/Code/User/mcp.json", "servers"),
        ("opencode", Scope.PROJECT, "/p/opencode.json", "mcp"),
        ("opencode", Scope.USER, "/h/.config/opencode/opencode.json", "mcp"),
    ],
)
def test_config_locations(target: str, scope: Scope, path: str, key: str) -> None:
    location = config_location(target, scope, PLACES)
    assert location is not None
    assert (str(location.path), location.root_key) == (path, key)


def test_copilot_project_servers_go_to_the_shared_mcp_json() -> None:
    """Copilot CLI 1.0.102 lists `.mcp.json` as workspace servers, and `copilot mcp add`
    writes the user's config only: project scope is the file, never the CLI."""
    location = config_location("copilot", Scope.PROJECT, PLACES)
    assert location == config_location("claude", Scope.PROJECT, PLACES)
    assert location is not None and location.path == Path("/p/.mcp.json")
    assert add_argv(LOCAL, "copilot", Scope.PROJECT) is None
    assert remove_argv("my-tool", "copilot", Scope.PROJECT) is None
    assert config_entry(LOCAL, "copilot") == config_entry(LOCAL, "claude")


def test_neither_transport_is_rejected() -> None:
    with pytest.raises(ValueError, match="neither local nor remote"):
        server_from_values("x")


@pytest.mark.parametrize(
    ("env", "headers", "problem"),
    [
        ({"--scope": "user"}, {}, "invalid environment variable name '--scope'"),
        ({"A B": "x"}, {}, "invalid environment variable name 'A B'"),
        ({"1X": "x"}, {}, "invalid environment variable name '1X'"),
        ({}, {"--scope": "x"}, "invalid header name '--scope'"),
        ({}, {"X Y": "x"}, "invalid header name 'X Y'"),
        ({}, {"Bad:Name": "x"}, "invalid header name 'Bad:Name'"),
    ],
)
def test_keys_that_could_read_as_options_are_refused_before_any_argv(
    env: dict[str, str], headers: dict[str, str], problem: str
) -> None:
    if env:
        server = server_from_values("s", local={"command": "x", "env": env})
    else:
        server = server_from_values(
            "s", remote={"type": "http", "url": "https://e", "headers": headers}
        )
    found = argument_problem(server)
    assert found is not None and found.startswith(problem)


def test_ordinary_keys_pass() -> None:
    local = server_from_values("s", local={"command": "x", "env": {"API_KEY": "${K}", "_x1": "v"}})
    remote = server_from_values(
        "s", remote={"type": "http", "url": "https://e", "headers": {"X-Api-Key": "${K}"}}
    )
    assert argument_problem(local) is None and argument_problem(remote) is None
