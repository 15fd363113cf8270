"""A bundle's MCP server never replaces or removes the user's own (issue 13, 6).

No client CLI is on PATH, so servers go to the project's config files; the user
already has a server of the bundle's name in `.mcp.json` and `opencode.json`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

BUNDLE = """schema: 1
name: db-tools
description: The team's database server
items:
  rules: [style]
mcps:
  db:
    local: { command: team-db-mcp, args: [--stdio], env: { DB_URL: "${DB_URL}" } }
"""
MINE = {"command": "my-own-db", "args": ["--secret-flag"]}
BIN = "/usr/bin:/bin"  # git and nothing else: no claude, copilot, code on PATH


@pytest.fixture
def bundle_registry(registry: Path) -> Path:
    (registry / "skills" / "db-tools.bundle.yaml").write_text(BUNDLE)
    return registry


def _user_servers(project: Path) -> None:
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"db": MINE}}, indent=2) + "\n")


def _servers(project: Path) -> dict[str, object]:
    return json.loads((project / ".mcp.json").read_text())["mcpServers"]  # type: ignore[no-any-return]


def test_a_users_server_of_the_same_name_is_kept_and_reported(
    cli, project, bundle_registry
) -> None:  # type: ignore[no-untyped-def]
    _user_servers(project)
    before = (project / ".mcp.json").read_bytes()
    out = cli.run("add", f"{bundle_registry}", "db-tools", "--claude", cwd=project,
                  extra={"PATH": BIN})  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert (
        f"warning: mcp db: not configured for claude: {project / '.mcp.json'} already has a "
        "server 'db' that upskill did not write (or it was edited since); it is kept "
        "(use --force to replace it)\n"
    ) in out.stderr
    assert (project / ".mcp.json").read_bytes() == before
    lock = json.loads((project / ".upskill-lock.json").read_text())
    assert lock["mcps"] == [
        {
            "name": "db",
            "client": "claude",
            "scope": "project",
            "bundle": "db-tools",
            "status": "skipped",
        }
    ]
    # remove-mcp drops the record and leaves the user's server alone
    out = cli.run("remove-mcp", "db", cwd=project, extra={"PATH": BIN})
    assert out.returncode == 0, out.stderr
    assert (project / ".mcp.json").read_bytes() == before


def test_force_replaces_it_and_remove_mcp_then_removes_only_that_entry(
    cli, project, bundle_registry
) -> None:  # type: ignore[no-untyped-def]
    _user_servers(project)
    out = cli.run("add", f"{bundle_registry}", "db-tools", "--claude", "--force", cwd=project,
                  extra={"PATH": BIN})  # fmt: skip
    assert out.returncode == 0, out.stderr
    written = {
        "type": "stdio",
        "command": "team-db-mcp",
        "args": ["--stdio"],
        "env": {"DB_URL": "${DB_URL}"},
    }
    assert _servers(project) == {"db": written}
    [record] = json.loads((project / ".upskill-lock.json").read_text())["mcps"]
    assert record["status"] == "installed" and len(record["sha256"]) == 64
    out = cli.run("remove-mcp", "db", cwd=project, extra={"PATH": BIN})
    assert out.returncode == 0, out.stderr
    assert _servers(project) == {}


def test_an_entry_edited_since_is_the_users(cli, project, bundle_registry) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", f"{bundle_registry}", "db-tools", "--claude", cwd=project, extra={"PATH": BIN})
    servers = _servers(project)
    servers["db"]["args"] = ["--stdio", "--my-edit"]  # type: ignore[index]
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}, indent=2) + "\n")
    edited = (project / ".mcp.json").read_bytes()
    out = cli.run("update", "--claude", cwd=project, extra={"PATH": BIN})
    assert out.returncode == 0, out.stderr
    assert "already has a server 'db' that upskill did not write" in out.stderr
    assert (project / ".mcp.json").read_bytes() == edited
    out = cli.run("remove-mcp", "db", cwd=project, extra={"PATH": BIN})
    assert out.returncode == 0, out.stderr
    assert (project / ".mcp.json").read_bytes() == edited


def test_a_planted_record_does_not_make_a_users_server_upskills(
    cli, project, bundle_registry
) -> None:  # type: ignore[no-untyped-def]
    """A lockfile (which a repository carries) claiming the server proves nothing."""
    cli.ok("add", f"{bundle_registry}", "--claude", cwd=project, extra={"PATH": BIN})
    _user_servers(project)
    before = (project / ".mcp.json").read_bytes()
    lock_path = project / ".upskill-lock.json"
    lock = json.loads(lock_path.read_text())
    lock["mcps"] = [{"name": "db", "client": "claude", "bundle": "db-tools", "status": "installed"}]
    lock_path.write_text(json.dumps(lock, indent=2) + "\n")
    out = cli.run("remove-mcp", "db", cwd=project, extra={"PATH": BIN})
    assert out.returncode == 0, out.stderr
    assert (
        f"warning: mcp db: claude: the entry in {project / '.mcp.json'} is not the one upskill "
        "wrote; left in place, record dropped\n"
    ) in out.stderr
    assert (project / ".mcp.json").read_bytes() == before


def test_the_entry_claude_wrote_for_a_server_is_the_one_copilot_would_write(tmp_path: Path) -> None:
    """`claude mcp add` writes `"env": {}` for a server without environment (claude 2.1.197);
    Copilot, sharing `.mcp.json`, must adopt that entry, not call it the user's."""
    from upskill.clientconf.places import ConfigLocation
    from upskill.mcp.ownership import Verdict, judge

    path = tmp_path / ".mcp.json"
    entry = {"type": "stdio", "command": "npx", "args": ["-y", "fs", "."]}
    path.write_text(json.dumps({"mcpServers": {"fs": {**entry, "env": {}}}}))
    location = ConfigLocation(path, "mcpServers", within=tmp_path)
    assert judge(location, "fs", None, entry)[0] is Verdict.SAME
    assert judge(location, "fs", None, {**entry, "args": ["-y", "other"]})[0] is Verdict.THEIRS
