"""The registry's file-only clients end to end: each kind lands where the client reads it,
a kind a client has no place for is reported once, and its MCP file is written in its
own shape (Amp's dotted `amp.mcpServers` key included)."""

from __future__ import annotations

import json

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
        ".cursor/rules/style.mdc",
        ".kiro/settings/mcp.json",
        ".kiro/skills/review/SKILL.md",
        ".kiro/skills/review/references/list.md",
        ".kiro/steering/style.md",
        ".qwen/agents/reviewer.md",
        ".qwen/rules/style.md",
        ".qwen/settings.json",
        ".upskill-lock.json",
        ".upskill/.gitignore",
        ".upskill/.lock",
    ]
    warnings = [line for line in out.stderr.splitlines() if line.startswith("warning: ")]
    assert "warning: amp: 1 agent not delivered (Amp has no place for agents)" in warnings
    assert "warning: amp: 1 rule not delivered (Amp has no place for rules)" in warnings
    assert "warning: kiro: 1 agent not delivered (Kiro has no place for agents)" in warnings
    assert (
        "warning: mcp db: amp does not expand ${VAR} references: DB_URL is passed as written "
        "(name the variable after the key to forward it)"
    ) in warnings
    assert (
        (project / ".cursor/rules/style.mdc")
        .read_text()
        .startswith("---\nname: style\ndescription: ")
    )
    assert "alwaysApply: true\n---\n" in (project / ".cursor/rules/style.mdc").read_text()
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
        "style": ["cursor", "kiro", "qwen"],
        "review": ["cursor", "kiro", "qwen", "amp"],
        "reviewer": ["cursor", "qwen"],
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
        ".augment/rules/style.md",
        ".augment/settings.json",
        ".continue/rules/style.md",
        ".continue/skills/review/SKILL.md",
        ".continue/skills/review/references/list.md",
        ".factory/droids/reviewer.md",
        ".factory/mcp.json",
        ".upskill-lock.json",
        ".upskill/.gitignore",
        ".upskill/.lock",
    ]
    warnings = [line for line in out.stderr.splitlines() if line.startswith("warning: ")]
    assert "warning: factory: 1 rule not delivered (Factory Droid has no place for rules)" in (
        warnings
    )
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
    assert "type: always_apply\n---\n" in (project / ".augment/rules/style.md").read_text()
    lock = json.loads((project / ".upskill-lock.json").read_text())
    clients = {i["name"]: i["clients"] for i in lock["items"]}
    assert clients == {
        "style": ["augment", "continue"],
        "review": ["augment", "factory", "continue"],
        "reviewer": ["augment", "factory"],
    }
