"""doctor names a skill or agent a client would load twice (issue 15, item 3): Cursor
reads `.claude/agents` besides its own `.cursor/agents`, and does not deduplicate."""

from __future__ import annotations

import json

BIN = {"PATH": "/usr/bin:/bin"}


def test_doctor_reports_agents_cursor_reads_twice(cli, project, registry):  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), "--claude", "--cursor", cwd=project, extra=BIN)
    # The skill renders the same for both: Cursor reads Claude's copy, written once. The
    # agents differ (tools), and Cursor lists every copy, so its own is left out too
    # (`agentplace`): nothing is read twice until a copy is made by hand.
    assert not (project / ".agents/skills/review").exists()
    assert not (project / ".cursor/agents/reviewer.md").exists()
    assert (
        json.loads(cli.run("doctor", "--json", cwd=project, extra=BIN).stdout)["duplicate_reads"]
        == []
    )
    (project / ".cursor/agents").mkdir(parents=True)
    (project / ".cursor/agents/reviewer.md").write_text("---\nname: reviewer\n---\n\nMine.\n")
    out = cli.run("doctor", "--json", cwd=project, extra=BIN)
    assert out.returncode == 0  # informational: the user decides which copy goes
    report = json.loads(out.stdout)
    assert report["duplicate_reads"] == [
        {
            "client": "cursor",
            "kind": "agent",
            "name": "reviewer",
            "trees": [".cursor/agents/", ".claude/agents/"],
        },
    ]
    text = cli.run("doctor", cwd=project, extra=BIN)
    assert (
        "Read twice by one client (informational: remove a copy, or narrow the clients):\n"
        "  cursor: agent reviewer in .cursor/agents/, .claude/agents/\n"
    ) in text.stdout


def test_clients_that_deduplicate_are_not_reported(cli, project, registry):  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), "--claude", "--copilot", "--opencode", cwd=project, extra=BIN)
    report = json.loads(cli.run("doctor", "--json", cwd=project, extra=BIN).stdout)
    assert report["duplicate_reads"] == []  # Copilot and opencode list a name once


def test_a_shared_copy_follows_the_selection(cli, project, registry):  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), "--claude", "--cursor", cwd=project, extra=BIN)
    lock = json.loads((project / ".upskill-lock.json").read_text())
    skill = next(o for o in lock["outputs"] if o["path"] == ".claude/skills/review/SKILL.md")
    assert skill["owners"] == ["skill:review@claude", "skill:review@cursor"]
    cli.ok("update", "--cursor", cwd=project, extra=BIN)  # Claude dropped: Cursor's own copy
    assert (project / ".agents/skills/review/SKILL.md").is_file()
    assert not (project / ".claude").exists()
    assert cli.run("doctor", cwd=project, extra=BIN).returncode == 0
