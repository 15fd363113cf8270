"""doctor names a skill or agent a client would load twice (issue 15, item 3): Cursor
reads `.claude/agents` besides its own `.cursor/agents`, and does not deduplicate."""

from __future__ import annotations

import json

BIN = {"PATH": "/usr/bin:/bin"}


def test_doctor_reports_agents_cursor_reads_twice(cli, project, registry):  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), "--claude", "--cursor", cwd=project, extra=BIN)
    out = cli.run("doctor", "--json", cwd=project, extra=BIN)
    assert out.returncode == 0  # informational: the user decides which copy goes
    report = json.loads(out.stdout)
    assert report["duplicate_reads"] == [
        {
            "client": "cursor",
            "kind": "skill",
            "name": "review",
            "trees": [".agents/skills/", ".claude/skills/"],
        },
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
        "  cursor: skill review in .agents/skills/, .claude/skills/\n"
        "  cursor: agent reviewer in .cursor/agents/, .claude/agents/\n"
    ) in text.stdout


def test_clients_that_deduplicate_are_not_reported(cli, project, registry):  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), "--claude", "--copilot", "--opencode", cwd=project, extra=BIN)
    report = json.loads(cli.run("doctor", "--json", cwd=project, extra=BIN).stdout)
    assert report["duplicate_reads"] == []  # Copilot and opencode list a name once
