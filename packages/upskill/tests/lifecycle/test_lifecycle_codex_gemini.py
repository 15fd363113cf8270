"""Codex CLI and Gemini CLI targets end to end: skills in the shared `.agents/skills`,
Codex role files, Gemini agents, MCP servers in their config files, rules compiled
into the one instructions file each reads (`AGENTS.md`; `.gemini/upskill.md`, which
`GEMINI.md` imports), and a clean remove."""

from __future__ import annotations

import json
import tomllib

from upskill.render.compiled import compile_document, parse_sections

BUNDLE = """schema: 1
name: team
description: The team's items and database server
items:
  rules: [style]
  skills: [review]
  agents: [reviewer]
mcps:
  db:
    local: { command: team-db, env: { DB_URL: "${DB_URL}", TOKEN: "${TEAM_TOKEN}" } }
  feed:
    remote: { type: sse, url: "https://feed.example/sse" }
"""
BIN = {"PATH": "/usr/bin:/bin"}  # no client CLI on PATH


def test_add_and_remove_for_codex_and_gemini(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    (registry / "skills" / "team.bundle.yaml").write_text(BUNDLE)
    codex_config = project / ".codex" / "config.toml"
    codex_config.parent.mkdir()
    codex_config.write_text('# mine\nmodel = "gpt-6.2-sol"\n')
    out = cli.ok("add", str(registry), "team", "--codex", "--gemini", cwd=project, extra=BIN)
    assert h.files(project) == [
        ".agents/skills/review/SKILL.md",
        ".agents/skills/review/references/list.md",
        ".codex/agents/reviewer.toml",
        ".codex/config.toml",
        ".gemini/agents/reviewer.md",
        ".gemini/settings.json",
        ".gemini/upskill.md",
        ".upskill-lock.json",
        ".upskill/.gitignore",
        ".upskill/.lock",
        "AGENTS.md",
        "GEMINI.md",
    ]
    # One section per always-on rule, in agents-md-compiler's format, for each file.
    compiled = compile_document({"style": b"Use four spaces.\n"})
    assert (project / "AGENTS.md").read_bytes() == compiled
    assert (project / ".gemini/upskill.md").read_bytes() == compiled
    assert (project / "GEMINI.md").read_bytes() == b"@.gemini/upskill.md\n"  # Gemini's import
    assert parse_sections(compiled) == {"style": b"Use four spaces.\n"}
    warnings = [line for line in out.stderr.splitlines() if line.startswith("warning: ")]
    assert not [w for w in warnings if "not delivered" in w], warnings
    assert (
        "warning: mcp db: codex does not expand ${VAR} references: TOKEN is passed as written "
        "(name the variable after the key to forward it)"
    ) in warnings
    assert (
        "warning: mcp feed: not configured: codex does not support sse servers (only http)"
    ) in warnings

    codex = codex_config.read_text()
    assert codex.startswith('# mine\nmodel = "gpt-6.2-sol"\n')
    assert tomllib.loads(codex)["mcp_servers"] == {
        "db": {"command": "team-db", "env": {"TOKEN": "${TEAM_TOKEN}"}, "env_vars": ["DB_URL"]}
    }
    assert (project / ".gemini" / "settings.json").read_text() == (
        '{\n  "mcpServers": {\n'
        '    "db": {\n      "command": "team-db",\n      "env": {\n'
        '        "DB_URL": "${DB_URL}",\n        "TOKEN": "${TEAM_TOKEN}"\n      }\n    },\n'
        '    "feed": {\n      "type": "sse",\n      "url": "https://feed.example/sse"\n    }\n'
        "  }\n}\n"
    )
    role = tomllib.loads((project / ".codex/agents/reviewer.toml").read_text())
    assert role["name"] == "reviewer"
    assert role["developer_instructions"].startswith("You review code.\n")
    skill = (project / ".agents/skills/review/SKILL.md").read_text()
    assert skill.startswith("---\nname: review\n")

    cli.ok("remove", "--source", f"local:{registry}", "-y", cwd=project, extra=BIN)
    cli.ok("remove-mcp", "db", cwd=project, extra=BIN)
    cli.ok("remove-mcp", "feed", cwd=project, extra=BIN)
    assert codex_config.read_text() == '# mine\nmodel = "gpt-6.2-sol"\n'
    assert json.loads((project / ".gemini/settings.json").read_text()) == {"mcpServers": {}}
    assert not (project / ".agents").exists() and not (project / ".codex/agents").exists()
    assert not (project / "AGENTS.md").exists() and not (project / "GEMINI.md").exists()
    assert not (project / ".gemini/upskill.md").exists()
