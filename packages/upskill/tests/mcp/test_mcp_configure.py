"""configure / unregister / reconcile against fake client CLIs and real config files."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from upskill.clientconf.clientcli import SubprocessCli
from upskill.clientconf.places import Places, Scope
from upskill.mcp.configure import McpReport, configure_servers
from upskill.mcp.model import McpRecord, McpServer, Status, server_from_values
from upskill.mcp.ownership import digest
from upskill.mcp.reconcile import Check, reconcile
from upskill.mcp.unregister import unregister

SECRET = "s3cr3t-value-never-written"
LOCAL = server_from_values(
    "my-tool",
    local={"command": "npx", "args": ["-y", "my-tool-mcp"], "env": {"API_KEY": "${MY_KEY}"}},
    requires_env=("MY_KEY", "OTHER_KEY"),
)
REMOTE = server_from_values(
    "drawio",
    remote={"type": "http", "url": "https://mcp.draw.io/mcp",
            "headers": {"Authorization": "Bearer ${DRAWIO_TOKEN}"}},
)  # fmt: skip
ALL = ("claude", "copilot", "vscode", "opencode")


def run(
    fakes: Any, places: Places, servers: tuple[McpServer, ...], targets: tuple[str, ...],
    scope: Scope = Scope.PROJECT, after: McpReport | None = None,
) -> McpReport:  # fmt: skip
    """`after`: a previous run whose records the lockfile now holds."""
    recorded = {(r.name, r.client): r.sha256 for r in after.records} if after else None
    return configure_servers(
        servers, targets, scope=scope, bundle="b", places=places,
        cli=SubprocessCli(fakes.env), env={"MY_KEY": SECRET}, recorded=recorded,
    )  # fmt: skip


def read_jsonc_member(path: Path, root: str, name: str) -> Any:
    from upskill import jsonc

    return jsonc.loads(path.read_text())[root][name]


def read_json(path: Path) -> Any:
    return json.loads(path.read_text())


def tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*")) if p.is_file()}


def test_cli_first_for_claude_and_copilot_project(
    fake_clients: Callable[..., Any], places: Places
) -> None:
    fakes = fake_clients()
    report = run(fakes, places, (LOCAL, REMOTE), ("claude", "copilot"))
    # `copilot mcp add` writes the user's config only: at project scope Copilot gets the
    # `.mcp.json` it reads (issue 14, 2), never the CLI
    assert fakes.argvs() == [
        ["claude", "mcp", "add", "my-tool", "--scope", "project", "-e", "API_KEY=${MY_KEY}",
         "--", "npx", "-y", "my-tool-mcp"],
        ["claude", "mcp", "add", "--transport", "http", "drawio", "https://mcp.draw.io/mcp",
         "--scope", "project", "-H", "Authorization: Bearer ${DRAWIO_TOKEN}"],
    ]  # fmt: skip
    assert all(c["cwd"] == str(places.root) for c in fakes.calls())
    entries = read_json(places.root / ".mcp.json")["mcpServers"]
    assert report.records == (
        McpRecord("my-tool", "claude", Scope.PROJECT, "b", Status.INSTALLED),
        McpRecord("my-tool", "copilot", Scope.PROJECT, "b", Status.INSTALLED,
                  digest(entries["my-tool"])),
        McpRecord("drawio", "claude", Scope.PROJECT, "b", Status.INSTALLED),
        McpRecord("drawio", "copilot", Scope.PROJECT, "b", Status.INSTALLED,
                  digest(entries["drawio"])),
    )  # fmt: skip
    assert report.warnings == (
        "mcp my-tool: environment variable OTHER_KEY is not set; "
        "export it before the client starts the server",
    )
    assert list(tree(places.root)) == [".mcp.json"] and tree(places.home) == {}


def test_config_file_fallback_project_scope_every_target(
    fake_clients: Callable[..., Any], places: Places
) -> None:
    fakes = fake_clients(present=())
    report = run(fakes, places, (LOCAL, REMOTE), ALL)
    assert fakes.argvs() == []
    assert tree(places.root) == {
        ".mcp.json": json.dumps({"mcpServers": {
            "my-tool": {"type": "stdio", "command": "npx", "args": ["-y", "my-tool-mcp"],
                        "env": {"API_KEY": "${MY_KEY}"}},
            "drawio": {"type": "http", "url": "https://mcp.draw.io/mcp",
                       "headers": {"Authorization": "Bearer ${DRAWIO_TOKEN}"}},
        }}, indent=2) + "\n",
        ".vscode/mcp.json": json.dumps({"servers": {
            "my-tool": {"type": "stdio", "command": "npx", "args": ["-y", "my-tool-mcp"],
                        "env": {"API_KEY": "${MY_KEY}"}},
            "drawio": {"type": "http", "url": "https://mcp.draw.io/mcp",
                       "headers": {"Authorization": "Bearer ${DRAWIO_TOKEN}"}},
        }}, indent=2) + "\n",
        "opencode.json": json.dumps({"mcp": {
            "my-tool": {"type": "local", "command": ["npx", "-y", "my-tool-mcp"],
                        "environment": {"API_KEY": "{env:MY_KEY}"}},
            "drawio": {"type": "remote", "url": "https://mcp.draw.io/mcp",
                       "headers": {"Authorization": "Bearer {env:DRAWIO_TOKEN}"}},
        }}, indent=2) + "\n",
    }  # fmt: skip
    # Copilot reads the same `.mcp.json` entries as Claude Code (written once, same shape)
    assert {r.status for r in report.records} == {Status.INSTALLED}
    assert len(report.records) == 8
    assert tree(places.home) == {}
    everything = "".join(tree(places.root).values()) + repr(report)
    assert SECRET not in everything


def test_config_file_fallback_user_scope(fake_clients: Callable[..., Any], places: Places) -> None:
    fakes = fake_clients(present=())
    (places.home / ".claude.json").write_text('{"numStartups": 3, "projects": {}}\n')
    report = run(fakes, places, (REMOTE,), ALL, scope=Scope.USER)
    assert {r.status for r in report.records} == {Status.INSTALLED}
    entry = {"type": "http", "url": "https://mcp.draw.io/mcp",
             "headers": {"Authorization": "Bearer ${DRAWIO_TOKEN}"}}  # fmt: skip
    assert read_json(places.home / ".claude.json") == {
        "numStartups": 3, "projects": {}, "mcpServers": {"drawio": entry},
    }  # fmt: skip
    assert read_json(places.home / ".copilot/mcp-config.json") == {"mcpServers": {"drawio": entry}}
    assert read_json(places.home / ".config/Code/User/mcp.json") == {"servers": {"drawio": entry}}
    assert read_json(places.home / ".config/opencode/opencode.json") == {
        "mcp": {"drawio": {**entry, "type": "remote",
                           "headers": {"Authorization": "Bearer {env:DRAWIO_TOKEN}"}}}
    }  # fmt: skip
    assert tree(places.root) == {}


def test_vscode_user_scope_uses_code_add_mcp(
    fake_clients: Callable[..., Any], places: Places
) -> None:
    fakes = fake_clients()
    run(fakes, places, (LOCAL,), ("vscode",), scope=Scope.USER)
    assert fakes.argvs() == [[
        "code", "--add-mcp",
        '{"name":"my-tool","type":"stdio","command":"npx","args":["-y","my-tool-mcp"],'
        '"env":{"API_KEY":"${MY_KEY}"}}',
    ]]  # fmt: skip


JSONC = """{
  // project servers
  "servers": {
    "mine": { "type": "stdio", "command": "x" }, // hand-written
  },
  /* keep me */
  "inputs": []
}
"""


def test_jsonc_merge_keeps_comments_and_unrelated_keys(
    fake_clients: Callable[..., Any], places: Places
) -> None:
    fakes = fake_clients(present=())
    (places.root / ".vscode").mkdir()
    config = places.root / ".vscode/mcp.json"
    config.write_text(JSONC)
    first = run(fakes, places, (REMOTE,), ("vscode",))
    assert (
        config.read_text()
        == """{
  // project servers
  "servers": {
    "mine": { "type": "stdio", "command": "x" }, // hand-written
    "drawio": {
      "type": "http",
      "url": "https://mcp.draw.io/mcp",
      "headers": {
        "Authorization": "Bearer ${DRAWIO_TOKEN}"
      }
    },
  },
  /* keep me */
  "inputs": []
}
"""
    )
    before = config.read_bytes()
    mtime = config.stat().st_mtime_ns
    run(fakes, places, (REMOTE,), ("vscode",))
    assert config.read_bytes() == before and config.stat().st_mtime_ns == mtime
    # the record carries the digest of the entry as written: only that entry is removed
    assert first.records[0].sha256 == digest(read_jsonc_member(config, "servers", "drawio"))
    unregister(first.records, places=places, cli=SubprocessCli(fakes.env))
    assert config.read_text() == JSONC


def test_idempotent_cli_rerun_overwrites_safely(
    fake_clients: Callable[..., Any], places: Places
) -> None:
    fakes = fake_clients(present=("claude",))
    first = run(fakes, places, (LOCAL,), ("claude",))
    fakes.clear_log()
    second = run(fakes, places, (LOCAL,), ("claude",), after=first)
    assert first.records == second.records
    add = ["claude", "mcp", "add", "my-tool", "--scope", "project", "-e", "API_KEY=${MY_KEY}",
           "--", "npx", "-y", "my-tool-mcp"]  # fmt: skip
    assert fakes.argvs() == [add, ["claude", "mcp", "remove", "my-tool", "--scope", "project"], add]
    assert fakes.state("claude")["mcp"] == ["my-tool"]


def test_one_failure_never_stops_the_rest(fake_clients: Callable[..., Any], places: Places) -> None:
    fakes = fake_clients(present=("claude",), fail=("claude",))
    (places.root / "opencode.json").write_text("{ not json")
    report = run(fakes, places, (REMOTE,), ALL)
    assert [(r.client, r.status) for r in report.records] == [
        ("claude", Status.SKIPPED),
        ("copilot", Status.INSTALLED),  # project scope: `.mcp.json`, no CLI
        ("vscode", Status.INSTALLED),
        ("opencode", Status.SKIPPED),
    ]
    assert report.warnings[0] == (
        "mcp drawio: `claude mcp add` failed: fake claude: simulated failure"
    )
    assert report.warnings[1] == (
        f"mcp drawio: not configured for opencode: {places.root / 'opencode.json'}:1: "
        "invalid JSON: expected a string key"
    )
    assert (places.root / "opencode.json").read_text() == "{ not json"
    assert (places.root / ".vscode/mcp.json").exists()


def test_opencode_jsonc_alternative_is_edited_in_place(
    fake_clients: Callable[..., Any], places: Places
) -> None:
    fakes = fake_clients(present=())
    (places.root / "opencode.jsonc").write_text(
        '{\n  "$schema": "https://opencode.ai/config.json"\n}\n'
    )
    run(fakes, places, (LOCAL,), ("opencode",))
    assert not (places.root / "opencode.json").exists()
    assert read_json(places.root / "opencode.jsonc")["mcp"]["my-tool"]["type"] == "local"


def test_unregister_cli_then_file(fake_clients: Callable[..., Any], places: Places) -> None:
    fakes = fake_clients(present=("claude", "copilot"))
    report = run(fakes, places, (LOCAL,), ALL, scope=Scope.USER)
    fakes.clear_log()
    fakes.present(())  # clients uninstalled since: fall back to the files
    fakes.present(("claude",))
    result = unregister(report.records, places=places, cli=SubprocessCli(fakes.env))
    assert fakes.argvs() == [["claude", "mcp", "remove", "my-tool", "--scope", "user"]]
    assert result.dropped == report.records
    assert result.warnings == ()
    assert read_json(places.home / ".config/Code/User/mcp.json") == {"servers": {}}
    assert read_json(places.home / ".config/opencode/opencode.json") == {"mcp": {}}
    # copilot was configured through its CLI, which is now gone: nothing in its file.
    assert not (places.home / ".copilot/mcp-config.json").exists()


def test_reconcile_statuses(fake_clients: Callable[..., Any], places: Places) -> None:
    fakes = fake_clients(present=("claude",))
    report = run(fakes, places, (LOCAL, REMOTE), ("claude", "vscode"), Scope.PROJECT)
    cli = SubprocessCli(fakes.env)
    fakes.clear_log()
    checks = reconcile(report.records, places=places, cli=cli)
    assert [(c.record.name, c.record.client, c.status) for c in checks] == [
        ("my-tool", "claude", Check.OK),
        ("my-tool", "vscode", Check.OK),
        ("drawio", "claude", Check.OK),
        ("drawio", "vscode", Check.OK),
    ]
    assert fakes.argvs() == [["claude", "mcp", "list"]]
    # Out-of-band removal is drift.
    SubprocessCli(fakes.env).run(["claude", "mcp", "remove", "drawio"], places.root)
    (places.root / ".vscode/mcp.json").write_text('{"servers": {}}')
    checks = reconcile(report.records, places=places, cli=cli)
    assert [c.status for c in checks] == [
        Check.OK, Check.NOT_REGISTERED, Check.NOT_REGISTERED, Check.NOT_REGISTERED,
    ]  # fmt: skip
    assert [c.is_drift for c in checks] == [False, True, True, True]
    # Unverifiable states are advisory.
    (places.root / ".vscode/mcp.json").write_text("{,}")
    fakes.fail("claude")
    checks = reconcile(report.records, places=places, cli=SubprocessCli(fakes.env))
    assert [c.to_json()["status"] for c in checks] == [
        {"query-failed": {"stderr": "fake claude: simulated failure"}},
        {"config-unreadable": {"error": f"{places.root / '.vscode/mcp.json'}:1: "
                                        "invalid JSON: expected a string key"}},
        {"query-failed": {"stderr": "fake claude: simulated failure"}},
        {"config-unreadable": {"error": f"{places.root / '.vscode/mcp.json'}:1: "
                                        "invalid JSON: expected a string key"}},
    ]  # fmt: skip
    assert not any(c.is_drift for c in checks)
    fakes.present(())
    (places.root / ".vscode/mcp.json").unlink()
    checks = reconcile(report.records, places=places, cli=SubprocessCli(fakes.env))
    # without the claude CLI its config file is checked (the fakes keep no file)
    assert [c.status for c in checks] == [Check.CONFIG_MISSING] * 4
    skipped = McpRecord("x", "copilot", Scope.PROJECT, "b", Status.SKIPPED)
    assert reconcile((skipped,), places=places, cli=cli)[0].to_json() == {
        "name": "x", "client": "copilot", "bundle": "b", "status": "skipped",
    }  # fmt: skip


def test_option_like_values_are_refused(fake_clients: Callable[..., Any], places: Places) -> None:
    fakes = fake_clients()
    bad_name = server_from_values("--scope", local={"command": "x"})
    bad_url = server_from_values("ok", remote={"type": "http", "url": "-H evil"})
    report = run(fakes, places, (bad_name, bad_url), ALL)
    assert fakes.argvs() == [] and report.records == ()
    assert report.warnings == (
        "mcp --scope: not configured: invalid server name '--scope' "
        "(letters, digits, '.', '_', '-', '@')",
        "mcp ok: not configured: remote url '-H evil' must start with https:// or http://",
    )
    assert tree(places.root) == {} and tree(places.home) == {}


def test_unwritable_config_location_is_a_skip(
    fake_clients: Callable[..., Any], places: Places
) -> None:
    fakes = fake_clients(present=())
    (places.root / ".vscode").write_text("a file where a directory should be")
    report = run(fakes, places, (REMOTE,), ("vscode", "opencode"))
    assert [(r.client, r.status) for r in report.records] == [
        ("vscode", Status.SKIPPED),
        ("opencode", Status.INSTALLED),
    ]
    assert report.warnings == (
        f"mcp drawio: not configured for vscode: {places.root / '.vscode/mcp.json'}: "
        "cannot read: Not a directory",
    )
    assert (places.root / ".vscode").read_text() == "a file where a directory should be"


def test_values_from_records_are_checked_on_the_remove_side_too(
    fake_clients: Callable[..., Any], places: Places
) -> None:
    """A lockfile is data: a record's name or identifier that would read as an option never
    reaches a client CLI (issue 24, 5)."""
    from upskill.plugins.model import PluginRecord, PluginStatus
    from upskill.plugins.uninstall import uninstall_plugins

    fakes = fake_clients(present=("claude",))
    cli = SubprocessCli(fakes.env)
    bad = McpRecord("--scope", "claude", Scope.USER, "b", Status.INSTALLED)
    result = unregister([bad], places=places, cli=cli)
    assert result.warnings == (
        "mcp --scope: claude: not removed: invalid server name '--scope' "
        "(letters, digits, '.', '_', '-', '@'); record dropped",
    )
    plugin = PluginRecord("p", "claude", "--rf", Scope.USER, "b", PluginStatus.INSTALLED)
    report = uninstall_plugins([plugin], places=places, cli=cli)
    assert report.warnings == (
        "plugin p (claude): not uninstalled: refusing '--rf': it would be read as a "
        "command-line option",
    )
    assert fakes.argvs() == []
