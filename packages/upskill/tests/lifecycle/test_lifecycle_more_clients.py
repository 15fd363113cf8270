"""The registry's file-only clients end to end: each kind lands where the client reads it,
a kind a client has no place for is reported once, and its MCP file is written in its
own shape (Amp's dotted `amp.mcpServers` key included). Amp reads rules from `AGENTS.md`
only, so upskill compiles one; Cursor, Kiro and Qwen read that file too, so an always-on
rule reaches them there, once, instead of also in their own rule trees."""

from __future__ import annotations

import json

from upskill.render.compiled import parse_sections

BUNDLE = """schema: 1
name: team
description: The team's items and database server
items:
  rules: [style]
  skills: [review]
  agents: [reviewer]
mcps:
  db:
    local: { command: team-db, env: { DB_URL: "${DB_URL}" } }
"""
BIN = {"PATH": "/usr/bin:/bin"}


def test_cursor_kiro_amp_qwen(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    (registry / "skills" / "team.bundle.yaml").write_text(BUNDLE)
    out = cli.ok(
        "add", str(registry), "team", "--cursor", "--kiro", "--amp", "--qwen",
        cwd=project, extra=BIN,
    )  # fmt: skip
    assert h.files(project) == [
        ".agents/skills/review/SKILL.md",
        ".agents/skills/review/references/list.md",
        ".amp/settings.json",
        ".cursor/agents/reviewer.md",
        ".cursor/mcp.json",
        ".kiro/agents/reviewer.json",
        ".kiro/settings/mcp.json",
        ".kiro/skills/review/SKILL.md",
        ".kiro/skills/review/references/list.md",
        ".qwen/agents/reviewer.md",
        ".qwen/settings.json",
        ".upskill-lock.json",
        ".upskill/.gitignore",
        ".upskill/.lock",
        "AGENTS.md",
    ]
    assert parse_sections((project / "AGENTS.md").read_bytes()) == {"style": b"Use four spaces.\n"}
    warnings = [line for line in out.stderr.splitlines() if line.startswith("warning: ")]
    assert "warning: amp: 1 agent not delivered (Amp has no place for agents)" in warnings
    assert not [w for w in warnings if w.startswith("warning: kiro: ")]
    # Kiro CLI's JSON agent configuration: the body is `prompt`, the tools Kiro's names;
    # the `sonnet` alias is Kiro CLI's `claude-sonnet-4.6`.
    assert json.loads((project / ".kiro/agents/reviewer.json").read_text()) == {
        "name": "reviewer",
        "description": "Use when testing reviewer",
        "prompt": "You review code.\n\n## Skills\n\nThis agent relies on the following skills, "
        "installed alongside it. Use them when relevant:\n\n- review\n",
        "tools": ["read", "shell"],
        "model": "claude-sonnet-4.6",
    }
    assert (
        "warning: mcp db: amp does not expand ${VAR} references: DB_URL is passed as written "
        "(name the variable after the key to forward it)"
    ) in warnings
    assert json.loads((project / ".amp/settings.json").read_text()) == {
        "amp.mcpServers": {"db": {"command": "team-db", "env": {"DB_URL": "${DB_URL}"}}}
    }
    assert json.loads((project / ".cursor/mcp.json").read_text()) == {
        "mcpServers": {"db": {"command": "team-db", "env": {"DB_URL": "${env:DB_URL}"}}}
    }
    # Qwen's stdio servers inherit its environment: `DB_URL: ${DB_URL}` is left out.
    assert json.loads((project / ".qwen/settings.json").read_text()) == {
        "mcpServers": {"db": {"command": "team-db"}}
    }
    lock = json.loads((project / ".upskill-lock.json").read_text())
    clients = {i["name"]: i["clients"] for i in lock["items"]}
    assert clients == {
        "style": ["cursor", "kiro", "qwen", "amp"],
        "review": ["cursor", "kiro", "qwen", "amp"],
        "reviewer": ["cursor", "kiro", "qwen"],
    }
    cli.ok("update", cwd=project, extra=BIN)  # a bare update keeps the recorded selection
    assert json.loads((project / ".upskill-lock.json").read_text())["items"] == lock["items"]


def test_augment_factory_continue(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    (registry / "skills" / "team.bundle.yaml").write_text(BUNDLE)
    out = cli.ok(
        "add", str(registry), "team", "--augment", "--factory", "--continue",
        cwd=project, extra={**BIN, "DB_URL": "postgres://db"},
    )  # fmt: skip
    assert h.files(project) == [
        ".agents/skills/review/SKILL.md",
        ".agents/skills/review/references/list.md",
        ".augment/agents/reviewer.md",
        ".augment/settings.json",
        ".continue/skills/review/SKILL.md",
        ".continue/skills/review/references/list.md",
        ".factory/droids/reviewer.md",
        ".factory/mcp.json",
        ".upskill-lock.json",
        ".upskill/.gitignore",
        ".upskill/.lock",
        "AGENTS.md",
    ]
    # Droid reads AGENTS.md only: the always-on rule is compiled there, and Auggie and
    # Continue, which read AGENTS.md too, get it there instead of a copy of their own.
    assert parse_sections((project / "AGENTS.md").read_bytes()) == {"style": b"Use four spaces.\n"}
    warnings = [line for line in out.stderr.splitlines() if line.startswith("warning: ")]
    assert not [w for w in warnings if "rule" in w], warnings
    assert "warning: continue: 1 agent not delivered (Continue has no place for agents)" in (
        warnings
    )
    # Auggie expands `${VAR}` in a stdio env and passes its servers no environment of its own.
    assert json.loads((project / ".augment/settings.json").read_text()) == {
        "mcpServers": {
            "db": {"type": "stdio", "command": "team-db", "env": {"DB_URL": "${DB_URL}"}}
        }
    }
    assert json.loads((project / ".factory/mcp.json").read_text()) == {
        "mcpServers": {
            "db": {"type": "stdio", "command": "team-db", "env": {"DB_URL": "${DB_URL}"}}
        }
    }
    lock = json.loads((project / ".upskill-lock.json").read_text())
    clients = {i["name"]: i["clients"] for i in lock["items"]}
    assert clients == {
        "style": ["augment", "factory", "continue"],
        "review": ["augment", "factory", "continue"],
        "reviewer": ["augment", "factory"],
    }


def test_a_path_scoped_rule_keeps_its_own_copies(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    """A compiled file has no file patterns: a scoped rule stays in the clients' own
    trees, scoped, and the single-file client is told it was not delivered."""
    h.write_item(registry, "rule", "style", "Use four spaces.\n", scope={"paths": ["src/**"]})
    out = cli.ok("add", str(registry), "style", "--cursor", "--amp", cwd=project, extra=BIN)
    assert "globs: src/**\n" in (project / ".cursor/rules/style.mdc").read_text()
    assert not (project / "AGENTS.md").exists()
    assert (
        "warning: amp: 1 path-scoped rule not delivered (Amp reads one instructions file, "
        "without file patterns)"
    ) in out.stderr.splitlines()
