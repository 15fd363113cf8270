"""The book's recipe "Shipping an MCP that needs a local install", end to end.

A local source registry ships a skill, its installer agent and a bundle with
an `mcps:` entry; `upskill add <bundle> --claude` installs the content and
configures the server through the (fake) claude CLI; doctor reconciles it;
remove-mcp unregisters it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

BUNDLE = """schema: 1
name: drawio-mcp
description: drawio MCP server, its skill, and its local-install agent
items:
  skills: [drawio-diagrams]
  agents: [drawio-mcp-installer]
mcps:
  drawio:
    local: { command: drawio-mcp, args: [--stdio], env: { DRAWIO_TOKEN: "${DRAWIO_TOKEN}" } }
    requires-env: [DRAWIO_TOKEN]
plugins:
  superpowers:
    claude:
      source: anthropics/claude-plugins
      marketplace: claude-plugins
      plugin: superpowers
    vscode:
      extension: anthropic.superpowers
"""


@pytest.fixture
def registry(tmp_path: Path) -> Path:
    root = tmp_path / "registry"
    skill = root / "skills/drawio-diagrams"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: drawio-diagrams\ndescription: Draw diagrams with the drawio MCP server\n---\n\n"
        "If the drawio MCP server is not responding, dispatch the drawio-mcp-installer agent "
        "to install it, then retry.\n"
    )
    agent = root / "skills/drawio-mcp-installer"
    agent.mkdir(parents=True)
    (agent / "AGENT.md").write_text(
        "---\nname: drawio-mcp-installer\ndescription: Installs the drawio MCP binary\n"
        "tools: [bash]\n---\n\nAsk the user before running install commands.\n"
    )
    (root / "skills/drawio-mcp.bundle.yaml").write_text(BUNDLE)
    return root


CLAUDE_ADD = [
    "claude", "mcp", "add", "drawio", "--scope", "project", "-e", "DRAWIO_TOKEN=${DRAWIO_TOKEN}",
    "--", "drawio-mcp", "--stdio",
]  # fmt: skip


def test_recipe_with_claude_cli(project: Any, registry: Path) -> None:
    bundle = registry / "skills/drawio-mcp.bundle.yaml"
    done = project.run("add", str(bundle), "--claude")
    assert done.returncode == 0, done.stderr
    assert "warning: mcp drawio: environment variable DRAWIO_TOKEN is not set" in done.stderr
    assert project.fakes.argvs() == [
        CLAUDE_ADD,
        [
            "claude",
            "plugin",
            "marketplace",
            "add",
            "--scope",
            "project",
            "anthropics/claude-plugins",
        ],
        ["claude", "plugin", "install", "superpowers@claude-plugins", "--scope", "project"],
    ]
    assert (project.root / ".claude/skills/drawio-diagrams/SKILL.md").is_file()
    assert (project.root / ".claude/agents/drawio-mcp-installer.md").is_file()
    assert not (project.root / ".mcp.json").exists()  # the CLI owns it
    lock = project.lock()
    assert lock["mcps"] == [
        {"name": "drawio", "client": "claude", "scope": "project", "bundle": "drawio-mcp",
         "status": "installed"},
    ]  # fmt: skip
    assert lock["plugins"] == [
        {"name": "superpowers", "client": "claude", "identifier": "superpowers@claude-plugins",
         "scope": "project", "bundle": "drawio-mcp", "status": "installed"},
    ]  # fmt: skip

    project.fakes.clear_log()
    done = project.run("doctor", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["mcp_entries"] == [
        {"name": "drawio", "client": "claude", "bundle": "drawio-mcp", "status": "ok"}
    ]
    assert report["missing_plugins"] == [] and report["skipped_plugins"] == []
    assert ["claude", "mcp", "list"] in project.fakes.argvs()

    # Unregistered out of band: drift, exit 1.
    project.fakes.state_remove("claude", "mcp", "drawio")
    done = project.run("doctor", "--json")
    assert done.returncode == 1
    assert json.loads(done.stdout)["mcp_entries"][0]["status"] == "not-registered"

    # The claude CLI disappears: its config file is checked instead; the fake kept the
    # server in its own state, so the file has none: advisory only.
    project.fakes.present(())
    done = project.run("doctor", "--json")
    report = json.loads(done.stdout)
    assert report["mcp_entries"][0]["status"] == "config-missing"
    assert done.returncode == 0

    project.fakes.present(("claude",))
    project.run("add", str(bundle), "--claude")  # reconfigures
    project.fakes.clear_log()
    done = project.run("remove-mcp", "drawio")
    assert done.returncode == 0, done.stderr
    assert project.fakes.argvs() == [["claude", "mcp", "remove", "drawio", "--scope", "project"]]
    assert "mcps" not in project.lock()
    assert project.fakes.state("claude")["mcp"] == []
    done = project.run("remove-mcp", "drawio")
    assert done.returncode == 1
    assert done.stderr == "upskill: error: no MCP server named 'drawio' is recorded\n"


def test_recipe_every_client_without_clis(project: Any, registry: Path) -> None:
    project.fakes.present(())
    (project.root / ".vscode").mkdir()
    (project.root / ".vscode/mcp.json").write_text('{\n  // mine\n  "servers": {}\n}\n')
    bundle = str(registry / "skills/drawio-mcp.bundle.yaml")
    done = project.run("add", bundle, "--claude", "--copilot", "--vscode", "--opencode")
    assert done.returncode == 0, done.stderr
    assert json.loads((project.root / ".mcp.json").read_text()) == {
        "mcpServers": {"drawio": {"type": "stdio", "command": "drawio-mcp", "args": ["--stdio"],
                                  "env": {"DRAWIO_TOKEN": "${DRAWIO_TOKEN}"}}}
    }  # fmt: skip
    assert (project.root / ".vscode/mcp.json").read_text() == (
        '{\n  // mine\n  "servers": {\n    "drawio": {\n      "type": "stdio",\n'
        '      "command": "drawio-mcp",\n      "args": [\n        "--stdio"\n      ],\n'
        '      "env": {\n        "DRAWIO_TOKEN": "${DRAWIO_TOKEN}"\n      }\n    }\n  }\n}\n'
    )
    opencode = json.loads((project.root / "opencode.json").read_text())
    assert opencode["mcp"] == {
        "drawio": {"type": "local", "command": ["drawio-mcp", "--stdio"],
                   "environment": {"DRAWIO_TOKEN": "{env:DRAWIO_TOKEN}"}}
    }  # fmt: skip
    lock = project.lock()
    assert [(m["client"], m["status"]) for m in lock["mcps"]] == [
        ("claude", "installed"), ("copilot", "installed"), ("vscode", "installed"),
        ("opencode", "installed"),
    ]  # fmt: skip
    assert [(p["client"], p["status"]) for p in lock["plugins"]] == [
        ("claude", "skipped"), ("vscode", "skipped"),
    ]  # fmt: skip
    done = project.run("doctor", "--json")
    report = json.loads(done.stdout)
    assert done.returncode == 0, report
    assert [e["status"] for e in report["mcp_entries"]] == [
        "ok", "ok", "ok", "ok",  # .mcp.json, written by upskill, is verified
    ]  # fmt: skip
    assert [p["client"] for p in report["skipped_plugins"]] == ["claude", "vscode"]
    done = project.run("remove-mcp", "drawio")
    assert done.returncode == 0, done.stderr
    assert json.loads((project.root / ".mcp.json").read_text()) == {"mcpServers": {}}
    assert (project.root / ".vscode/mcp.json").read_text() == ('{\n  // mine\n  "servers": {}\n}\n')
    assert json.loads((project.root / "opencode.json").read_text())["mcp"] == {}
    assert "mcps" not in project.lock()


def test_recipe_global_scope(project: Any, registry: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "not-a-repo"
    elsewhere.mkdir()
    project.fakes.present(("code",))
    done = project.run("add", str(registry / "skills/drawio-mcp.bundle.yaml"), "--claude",
                       "--vscode", cwd=elsewhere)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (
        json.loads((project.home / ".claude.json").read_text())["mcpServers"]["drawio"]["command"]
        == "drawio-mcp"
    )
    assert project.fakes.argvs()[0][:2] == ["code", "--add-mcp"]
    lock = project.lock(project.home)
    assert [(m["client"], m["scope"]) for m in lock["mcps"]] == [
        ("claude", "user"), ("vscode", "user"),
    ]  # fmt: skip
    # The fake `code` keeps its servers in its own state, not in the profile file:
    # doctor cannot verify that entry, which is informational.
    done = project.run("doctor", "-g", "--json", cwd=elsewhere)
    assert [e["status"] for e in json.loads(done.stdout)["mcp_entries"]] == [
        "ok", "config-missing",  # ~/.claude.json, written by upskill, is verified
    ]  # fmt: skip
    assert done.returncode == 0
    project.fakes.clear_log()
    done = project.run("remove-mcp", "drawio", "-g", cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    assert json.loads((project.home / ".claude.json").read_text())["mcpServers"] == {}
    assert project.fakes.argvs() == []  # VS Code has no remove verb: only its file is edited
    assert not (project.home / ".config/Code/User/mcp.json").exists()  # never created
    assert "mcps" not in project.lock(project.home)


def test_removing_the_bundle_uninstalls_plugins_and_keeps_mcps(
    project: Any, registry: Path
) -> None:
    done = project.run("add", str(registry / "skills/drawio-mcp.bundle.yaml"), "--claude")
    assert done.returncode == 0, done.stderr
    label = project.lock()["bundles"][0]["source"]
    project.fakes.clear_log()
    done = project.run("remove", "--source", label, "-y")
    assert done.returncode == 0, done.stderr
    assert project.fakes.argvs() == [
        ["claude", "plugin", "uninstall", "superpowers@claude-plugins", "--scope", "project"]
    ]
    assert "mcp drawio stays configured; remove it with `upskill remove-mcp drawio`" in done.stderr
    lock = project.lock()
    assert "plugins" not in lock
    assert [m["name"] for m in lock["mcps"]] == ["drawio"]
    # A plugin uninstalled out of band is reported missing by doctor.
    project.run("add", str(registry / "skills/drawio-mcp.bundle.yaml"), "--claude")
    project.fakes.state_remove("claude", "plugins", "superpowers@claude-plugins")
    done = project.run("doctor", "--json")
    assert done.returncode == 1
    assert json.loads(done.stdout)["missing_plugins"] == [
        {"name": "superpowers", "client": "claude", "identifier": "superpowers@claude-plugins",
         "bundle": "drawio-mcp"},
    ]  # fmt: skip


def test_update_reconfigures_an_unregistered_server(project: Any, registry: Path) -> None:
    bundle = registry / "skills/drawio-mcp.bundle.yaml"
    assert project.run("add", str(bundle), "--claude").returncode == 0
    project.fakes.state_remove("claude", "mcp", "drawio")
    assert project.run("doctor").returncode == 1
    done = project.run("doctor")
    assert done.returncode == 1
    # Only the unregistered server counts: the installed plugin's records do not.
    assert done.stderr.splitlines()[-1] == "1 problem(s) found."
    project.fakes.clear_log()
    # A bare update (the book's fix for doctor's finding) re-registers it: the
    # nothing-changed fast path never vouches for client-side state.
    done = project.run("update")
    assert done.returncode == 0, done.stderr
    assert CLAUDE_ADD in project.fakes.argvs()
    done = project.run("doctor")
    assert done.returncode == 0
    assert done.stderr.splitlines()[-1] == "No drift."


def test_narrowing_update_unconfigures_dropped_clients(project: Any, registry: Path) -> None:
    """Issue 14, 14: `update --claude` after an install for every client removes the
    server from the clients no longer selected, and their records; `.mcp.json`, which
    Copilot shares with Claude Code, keeps the entry Claude still uses."""
    project.fakes.present(())
    done = project.run("add", str(registry / "skills/drawio-mcp.bundle.yaml"))
    assert done.returncode == 0, done.stderr
    # Issue 14, 16: per client, what happened (no CLI here: plugins are skipped).
    assert done.stderr.endswith(
        "2 items installed:\n"
        "  claude: 2 items, MCP drawio, plugin superpowers skipped\n"
        "  copilot: 2 items, MCP drawio\n"
        "  vscode: 2 items, MCP drawio, plugin superpowers skipped\n"
        "  opencode: 2 items, MCP drawio\n"
    )
    done = project.run("update", "--claude")
    assert done.returncode == 0, done.stderr
    assert "mcp drawio: copilot: record dropped; the entry stays for claude" in done.stderr
    assert done.stderr.endswith("  claude: 2 items, MCP drawio, plugin superpowers skipped\n")
    assert list(json.loads((project.root / ".mcp.json").read_text())["mcpServers"]) == ["drawio"]
    assert json.loads((project.root / ".vscode/mcp.json").read_text()) == {"servers": {}}
    assert json.loads((project.root / "opencode.json").read_text())["mcp"] == {}
    assert [(m["client"], m["status"]) for m in project.lock()["mcps"]] == [("claude", "installed")]
    assert not (project.root / ".github").exists() and not (project.root / ".agents").exists()
    done = project.run("doctor", "--json")
    assert done.returncode == 0, done.stdout
