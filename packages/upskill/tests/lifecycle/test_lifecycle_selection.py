"""Which clients a bare `add` installs for (issue 15, item 5): flags, then config, then
what the scope already uses (its lockfile), then the clients detected here, then the
baseline; and `upskill clients` shows the same detection."""

from __future__ import annotations

import json
import os
from pathlib import Path

BIN = {"PATH": "/usr/bin:/bin"}  # no client CLI on PATH


def _clients(project: Path) -> dict[str, list[str]]:
    lock = json.loads((project / ".upskill-lock.json").read_text())
    return {i["name"]: i.get("clients", []) for i in lock["items"]}


def test_detected_clients_are_the_default_and_are_announced(cli, h, project, registry):  # type: ignore[no-untyped-def]
    (project / ".cursor").mkdir()
    (project / "GEMINI.md").write_text("# Ours\n")
    out = cli.ok("add", str(registry), cwd=project, extra=BIN)
    assert (
        "installing for the clients detected here: gemini (GEMINI.md), cursor (.cursor) "
        "(--all: every client)\n"
    ) in out.stderr
    assert _clients(project)["review"] == ["gemini", "cursor"]
    assert not (project / ".claude").exists() and not (project / ".github").exists()
    # A second add keeps to what the project uses, although it now has more client dirs.
    (project / ".kiro").mkdir()
    h.write_item(registry, "rule", "extra", "More.\n")
    out = cli.ok("add", str(registry), "extra", cwd=project, extra=BIN)
    assert "detected" not in out.stderr
    assert _clients(project)["extra"] == ["cursor"]  # gemini has no place for rules


def test_a_cli_on_path_counts_and_config_wins(cli, h, project, registry, tmp_path):  # type: ignore[no-untyped-def]
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    codex = bin_dir / "codex"
    codex.write_text("#!/bin/sh\nexit 0\n")
    codex.chmod(0o755)
    path = {"PATH": f"{bin_dir}{os.pathsep}/usr/bin:/bin"}
    out = cli.ok("add", str(registry), "-n", cwd=project, extra=path)
    assert "detected here: codex (codex on PATH)" in out.stderr
    (project / ".upskill").mkdir()
    (project / ".upskill/config.yaml").write_text("clients: [claude]\n")
    out = cli.ok("add", str(registry), cwd=project, extra=path)
    assert "detected" not in out.stderr
    assert all(v == ["claude"] for v in _clients(project).values())


def test_nothing_detected_means_the_baseline(cli, project, registry):  # type: ignore[no-untyped-def]
    out = cli.ok("add", str(registry), cwd=project, extra=BIN)
    assert "detected" not in out.stderr
    assert set(map(tuple, _clients(project).values())) == {()}  # the baseline, recorded empty
    assert (project / ".claude").is_dir() and (project / ".github").is_dir()


def test_all_selects_every_client(cli, project, registry):  # type: ignore[no-untyped-def]
    from upskill.clients import SELECTABLE_CLIENTS

    cli.ok("add", str(registry), "--all", cwd=project, extra=BIN)
    assert _clients(project)["review"] == list(SELECTABLE_CLIENTS)


def test_clients_command_lists_support_and_detection(cli, project):  # type: ignore[no-untyped-def]
    from upskill.clients import SELECTABLE_CLIENTS

    (project / ".zed").mkdir()
    out = cli.ok("clients", "--json", cwd=project, extra=BIN)
    document = json.loads(out.stdout)
    assert document["scope"] == "project"
    rows = {c["id"]: c for c in document["clients"]}
    assert list(rows) == list(SELECTABLE_CLIENTS)
    assert rows["zed"]["detected"] == ".zed" and rows["claude"]["detected"] is None
    assert rows["codex"]["kinds"] == {
        "rule": "AGENTS.md",
        "skill": ".agents/skills/<n>/SKILL.md",
        "agent": ".codex/agents/<n>.toml",
    }
    assert rows["windsurf"]["mcp"] is None  # user-level only
    text = cli.ok("clients", cwd=project, extra=BIN).stdout
    assert text.splitlines()[0] == "client    rules  skills  agents  mcp  detected"
    assert "zed       file   yes     -       yes  .zed" in text.splitlines()  # AGENTS.md
    home = cli.ok("clients", "-g", "--json", cwd=project, extra=BIN)
    rows = {c["id"]: c for c in json.loads(home.stdout)["clients"]}
    assert rows["cursor"]["kinds"]["rule"] is None  # Cursor keeps user rules in its UI
    assert rows["windsurf"]["mcp"] == ".codeium/windsurf/mcp_config.json"


def test_update_keeps_the_selection_for_an_item_no_client_took(cli, h, project, registry):  # type: ignore[no-untyped-def]
    # Crush has no place for agents, so the lockfile records no item for the bundle's
    # agent. A later update must not install that agent for the baseline clients.
    (registry / "skills" / "team.bundle.yaml").write_text(
        "schema: 1\nname: team\ndescription: Team\nitems:\n  rules: [style]\n  agents: [reviewer]\n"
    )
    cli.ok("add", str(registry), "team", "--crush", cwd=project, extra=BIN)
    before = h.files(project)
    h.write_item(registry, "rule", "style", "Use tabs.\n")
    out = cli.ok("update", cwd=project, extra=BIN)
    assert h.files(project) == before
    assert "warning: crush: 1 agent not delivered (Crush has no place for agents)\n" in out.stderr
    assert _clients(project) == {"style": ["crush"], "review": ["crush"]}
    assert b"Use tabs." in (project / "AGENTS.md").read_bytes()
