"""Crush end to end, from the registry alone (`clients/crush.py`; its binary cannot be
installed here, so these are the files its source says it reads): always-on rules
compiled into `AGENTS.md` (user level: `~/.config/crush/CRUSH.md`), skills in the
shared `.agents/skills`, MCP servers under `mcp` in `.crush.json` or an existing
`crush.json`, and its agents reported as not delivered: Crush has none of its own."""

from __future__ import annotations

import json
from pathlib import Path

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
    local: { command: team-db, env: { DB_URL: "${DB_URL}", MODE: fast } }
  api:
    remote: { type: sse, url: "https://api.example/sse", headers: { K: "${KEY}" } }
"""
BIN = {"PATH": "/usr/bin:/bin"}
AGENTS_LINE = "warning: crush: 1 agent not delivered (Crush has no place for agents)"
# A stdio server inherits Crush's environment: `DB_URL: ${DB_URL}` is left out.
SERVERS = {
    "db": {"type": "stdio", "command": "team-db", "env": {"MODE": "fast"}},
    "api": {"type": "sse", "url": "https://api.example/sse", "headers": {"K": "${KEY}"}},
}


def _warnings(out) -> list[str]:  # type: ignore[no-untyped-def]
    return [line for line in out.stderr.splitlines() if line.startswith("warning: ")]


def test_project_scope(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    (registry / "skills" / "team.bundle.yaml").write_text(BUNDLE)
    out = cli.ok("add", str(registry), "team", "--crush", cwd=project, extra=BIN)
    assert h.files(project) == [
        ".agents/skills/review/SKILL.md",
        ".agents/skills/review/references/list.md",
        ".crush.json",
        ".upskill-lock.json",
        ".upskill/.gitignore",
        ".upskill/.lock",
        "AGENTS.md",
    ]
    assert parse_sections((project / "AGENTS.md").read_bytes()) == {"style": b"Use four spaces.\n"}
    assert json.loads((project / ".crush.json").read_text()) == {"mcp": SERVERS}
    assert _warnings(out) == [AGENTS_LINE]
    lock = json.loads((project / ".upskill-lock.json").read_text())
    # The agent reaches no selected client: the lockfile records no item for it.
    assert {i["name"]: i["clients"] for i in lock["items"]} == {
        "style": ["crush"],
        "review": ["crush"],
    }


def test_an_existing_crush_json_takes_the_servers(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    """Crush merges `.crush.json` over `crush.json`: a project that keeps `crush.json`
    gets its servers there, its other keys untouched, and no second file."""
    (registry / "skills" / "team.bundle.yaml").write_text(BUNDLE)
    (project / "crush.json").write_text('{\n  "options": {"debug": true}\n}\n')
    cli.ok("add", str(registry), "team", "--crush", cwd=project, extra=BIN)
    assert not (project / ".crush.json").exists()
    assert json.loads((project / "crush.json").read_text()) == {
        "options": {"debug": True},
        "mcp": SERVERS,
    }


def test_user_scope(cli, h, registry, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (registry / "skills" / "team.bundle.yaml").write_text(BUNDLE)
    cwd = tmp_path / "elsewhere"  # not a git repository: the global scope
    cwd.mkdir()
    out = cli.ok("add", str(registry), "team", "--crush", "-g", cwd=cwd, extra=BIN)
    home = cli.home
    got = [p for p in h.files(home) if not p.startswith((".local/", ".cache/", ".upskill/"))]
    assert got == [
        ".agents/skills/review/SKILL.md",
        ".agents/skills/review/references/list.md",
        ".config/crush/CRUSH.md",
        ".config/crush/crush.json",
        ".upskill-lock.json",
    ]
    assert parse_sections((home / ".config/crush/CRUSH.md").read_bytes()) == {
        "style": b"Use four spaces.\n"
    }
    assert json.loads((home / ".config/crush/crush.json").read_text()) == {"mcp": SERVERS}
    assert _warnings(out) == [AGENTS_LINE]


def test_shared_files_serve_crush_once(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    """Crush reads `AGENTS.md`, `.cursor/rules/` and `.agents/skills`: beside Codex and
    Cursor the always-on rule is compiled once into `AGENTS.md` (Cursor, which reads it
    too, gets no `.cursor/rules` copy Crush would read a second time) and the skill is
    one `.agents/skills` copy."""
    (registry / "skills" / "team.bundle.yaml").write_text(BUNDLE)
    cli.ok("add", str(registry), "team", "--crush", "--codex", "--cursor", cwd=project, extra=BIN)
    files = h.files(project)
    assert [f for f in files if f.startswith((".agents/", ".cursor/rules/", "AGENTS"))] == [
        ".agents/skills/review/SKILL.md",
        ".agents/skills/review/references/list.md",
        "AGENTS.md",
    ]
    assert parse_sections((project / "AGENTS.md").read_bytes()) == {"style": b"Use four spaces.\n"}


HEAD = "---\nname: dx\ndescription: Use when testing dx\n---\n\n"


def _skills(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("SKILL.md"))}


def test_crush_rendering_goes_where_only_crush_reads(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Crush shows the copy whose directory sorts last: Claude's `.claude/skills` copy
    over the shared `.agents/skills` one. Its own rendering (a `SKILL.crush.md`
    override) goes to `.crush/skills`, which only Crush reads and which sorts after
    both; never to `.cursor/skills`, which Cursor reads too."""
    reg = tmp_path / "reg"
    (reg / "skills" / "dx").mkdir(parents=True)
    (reg / "skills" / "dx" / "SKILL.md").write_text(
        "---\nschema: 1\ndescription: Use when testing dx\n---\n\nCommon.\n"
    )
    (reg / "skills" / "dx" / "SKILL.crush.md").write_text("For Crush.\n")
    out = cli.ok("add", str(reg), "--crush", "--claude", "--codex", cwd=project, extra=BIN)
    assert [w for w in _warnings(out) if "skill:dx" in w] == []
    assert _skills(project) == {
        ".agents/skills/dx/SKILL.md": HEAD + "Common.\n",
        ".claude/skills/dx/SKILL.md": HEAD + "Common.\n",
        ".crush/skills/dx/SKILL.md": HEAD + "For Crush.\n",
    }


def test_a_cursor_copy_crush_also_reads_is_reported(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    """Crush reads every file under `.cursor/rules/`: a rule whose text differs for
    Cursor keeps Cursor's copy there beside Crush's section in `AGENTS.md`, so Crush
    reads it twice, and the run says so; a rule with one text is compiled
    once and Cursor reads it there."""
    h.write_item(
        registry, "rule", "style", "Use four spaces.\n\n<!-- @client:cursor -->\nCursor only."
        "\n<!-- @endclient -->\n",
    )  # fmt: skip
    h.write_item(registry, "rule", "plain", "One text.\n")
    out = cli.ok("add", str(registry), "style", "plain", "--crush", "--cursor", cwd=project)
    assert [f for f in h.files(project) if f.startswith((".cursor/", "AGENTS"))] == [
        ".cursor/rules/style.mdc",
        "AGENTS.md",
    ]
    assert parse_sections((project / "AGENTS.md").read_bytes()) == {
        "plain": b"One text.\n",
        "style": b"Use four spaces.\n",
    }
    # Cursor reads `AGENTS.md` too: each of the two reads the other's text as well.
    assert _warnings(out) == [
        "warning: cursor: 1 rule read twice (rule:style): its own copy, and Crush's text in "
        "AGENTS.md, which Cursor reads too (the text differs for Cursor, and Crush reads a "
        "project's rules from AGENTS.md)",
        "warning: crush: 1 rule read twice (rule:style): its compiled copy, and Cursor's copy "
        "in .cursor/rules/, where Crush reads every file (the text differs for Cursor, so "
        "Cursor keeps a copy of its own)",
    ]


TEAM_AGENTS = b"# Team\n\nRun the tests before you commit.\n"
CODEX_LINE = (
    "warning: codex: 1 rule not delivered (AGENTS.md is the team's own file; add the lines "
    "`<!-- upskill:begin -->` and `<!-- upskill:end -->` to it to let upskill manage a block "
    "there)"
)


def test_beside_a_team_agents_md_crush_reads_crush_md(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    """A team's own `AGENTS.md` (no managed block) is never written: Crush's rules go to
    `CRUSH.md`, which Crush reads besides it and no other client reads, so Crush still
    gets each rule once; Codex, which reads `AGENTS.md` alone, is told what it misses.
    When the team's file goes, the next update moves the rules back to `AGENTS.md` and
    removes `CRUSH.md`."""
    (registry / "skills" / "team.bundle.yaml").write_text(BUNDLE)
    (project / "AGENTS.md").write_bytes(TEAM_AGENTS)
    out = cli.ok("add", str(registry), "team", "--crush", "--codex", cwd=project, extra=BIN)
    assert (project / "AGENTS.md").read_bytes() == TEAM_AGENTS
    crush_md = (project / "CRUSH.md").read_bytes()
    assert parse_sections(crush_md) == {"style": b"Use four spaces.\n"}
    assert [w for w in _warnings(out) if "rule" in w] == [CODEX_LINE]
    lock = json.loads((project / ".upskill-lock.json").read_text())
    owners = {o["path"]: o["owners"] for o in lock["outputs"]}
    assert owners["CRUSH.md"] == ["rule:style@crush"]
    assert "AGENTS.md" not in owners
    # A second run changes nothing.
    again = cli.ok("update", cwd=project, extra=BIN)
    assert (project / "CRUSH.md").read_bytes() == crush_md
    # The lockfile records the selection, Codex too (`unplaced`): update says it again.
    assert [w for w in _warnings(again) if "rule" in w] == [CODEX_LINE]
    assert json.loads((project / ".upskill-lock.json").read_text())["items"][0]["unplaced"] == [
        "codex"
    ]
    (project / "AGENTS.md").unlink()
    moved = cli.ok("update", cwd=project, extra=BIN)
    assert [w for w in _warnings(moved) if "rule" in w] == []
    assert not (project / "CRUSH.md").exists()
    assert parse_sections((project / "AGENTS.md").read_bytes()) == {"style": b"Use four spaces.\n"}
    # Codex, selected all along, now reads the rule there too.
    lock = json.loads((project / ".upskill-lock.json").read_text())
    owners = {o["path"]: o["owners"] for o in lock["outputs"]}
    assert owners["AGENTS.md"] == ["rule:style@codex", "rule:style@crush"]
    assert "unplaced" not in lock["items"][0]


def test_team_agents_md_and_crush_md_are_both_left_alone(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    """Both files the team's own: neither is written, and one line names both."""
    (registry / "skills" / "team.bundle.yaml").write_text(BUNDLE)
    (project / "AGENTS.md").write_bytes(TEAM_AGENTS)
    (project / "CRUSH.md").write_bytes(b"# Crush\n\nBe brief.\n")
    out = cli.ok("add", str(registry), "team", "--crush", cwd=project, extra=BIN)
    assert (project / "AGENTS.md").read_bytes() == TEAM_AGENTS
    assert (project / "CRUSH.md").read_bytes() == b"# Crush\n\nBe brief.\n"
    assert [w for w in _warnings(out) if "rule" in w] == [
        "warning: crush: 1 rule not delivered (AGENTS.md and CRUSH.md are the team's own files;"
        " add the lines `<!-- upskill:begin -->` and `<!-- upskill:end -->` to one of them to "
        "let upskill manage a block there)"
    ]


def test_a_managed_block_in_a_team_crush_md_takes_the_rules(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    """Beside a team's own `AGENTS.md`, a team `CRUSH.md` with the two marker lines gets
    the rules between them; every other byte stays."""
    (registry / "skills" / "team.bundle.yaml").write_text(BUNDLE)
    (project / "AGENTS.md").write_bytes(TEAM_AGENTS)
    head, tail = b"# Crush\n\n<!-- upskill:begin -->\n", b"<!-- upskill:end -->\nBe brief.\n"
    (project / "CRUSH.md").write_bytes(head + tail)
    out = cli.ok("add", str(registry), "team", "--crush", cwd=project, extra=BIN)
    data = (project / "CRUSH.md").read_bytes()
    assert data.startswith(head) and data.endswith(tail)
    assert parse_sections(data[len(head) : -len(tail)]) == {"style": b"Use four spaces.\n"}
    assert (project / "AGENTS.md").read_bytes() == TEAM_AGENTS
    assert [w for w in _warnings(out) if "rule" in w] == []


def test_doctor_counts_crush_md_among_crushs_reads(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    """Crush reads `AGENTS.md` and `CRUSH.md` both: a rule compiled into each (the team
    copied upskill's `CRUSH.md` into a managed block of its own `AGENTS.md`) is one
    Crush reads twice until the next update moves it (doctor is informational)."""
    h.write_item(registry, "rule", "style", "Use four spaces.\n")
    (project / "AGENTS.md").write_bytes(TEAM_AGENTS)
    cli.ok("add", str(registry), "style", "--crush", cwd=project, extra=BIN)
    report = json.loads(cli.run("doctor", "--json", cwd=project, extra=BIN).stdout)
    assert report["duplicate_reads"] == []
    block = b"<!-- upskill:begin -->\n" + (project / "CRUSH.md").read_bytes()
    (project / "AGENTS.md").write_bytes(TEAM_AGENTS + block + b"<!-- upskill:end -->\n")
    out = cli.run("doctor", "--json", cwd=project, extra=BIN)
    assert out.returncode == 0
    report = json.loads(out.stdout)
    assert report["duplicate_reads"] == [
        {"client": "crush", "kind": "rule", "name": "style", "trees": ["AGENTS.md", "CRUSH.md"]}
    ]
    cli.ok("update", cwd=project, extra=BIN)
    assert not (project / "CRUSH.md").exists()
    report = json.loads(cli.run("doctor", "--json", cwd=project, extra=BIN).stdout)
    assert report["duplicate_reads"] == []


def test_cursor_copy_serves_crush_beside_a_team_agents_md(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    """Beside a team's own `AGENTS.md` Cursor keeps its copy in `.cursor/rules/`, which
    Crush reads whole: with the same text there, that copy serves Crush too (recorded
    for both), and `CRUSH.md` would be a second read, so it is not written."""
    h.write_item(registry, "rule", "plain", "One text.\n")
    (project / "AGENTS.md").write_bytes(TEAM_AGENTS)
    out = cli.ok("add", str(registry), "plain", "--crush", "--cursor", cwd=project, extra=BIN)
    assert [f for f in h.files(project) if f.startswith((".cursor/", "AGENTS", "CRUSH"))] == [
        ".cursor/rules/plain.mdc",
        "AGENTS.md",
    ]
    assert (project / "AGENTS.md").read_bytes() == TEAM_AGENTS
    assert _warnings(out) == []
    lock = json.loads((project / ".upskill-lock.json").read_text())
    owners = {o["path"]: o["owners"] for o in lock["outputs"]}
    assert owners[".cursor/rules/plain.mdc"] == ["rule:plain@crush", "rule:plain@cursor"]
    report = json.loads(cli.run("doctor", "--json", cwd=project, extra=BIN).stdout)
    assert report["duplicate_reads"] == []


def test_a_path_scoped_rule_reaches_crush_always_on_through_cursor(
    cli, h, project, registry
) -> None:  # type: ignore[no-untyped-def]
    """Crush reads `.cursor/rules/<n>.mdc` whole, its `globs:` as text: with Cursor
    selected a path-scoped rule reaches Crush, always-on, and the run says so; without
    Cursor it does not reach Crush at all."""
    (registry / "skills" / "py").mkdir(parents=True)
    (registry / "skills" / "py" / "RULE.md").write_text(
        "---\nschema: 1\ndescription: Python\nscope:\n  paths: ['**/*.py']\n---\n\nType hints.\n"
    )
    alone = cli.ok("add", str(registry), "py", "--crush", "--codex", cwd=project, extra=BIN)
    assert _warnings(alone) == [
        "warning: codex: 1 path-scoped rule not delivered (Codex CLI reads one instructions file, "
        "without file patterns)",
        "warning: crush: 1 path-scoped rule not delivered (Crush reads one instructions file, "
        "without file patterns)",
    ]
    out = cli.ok("add", str(registry), "py", "--crush", "--cursor", cwd=project, extra=BIN)
    assert _warnings(out) == [
        "warning: crush: 1 path-scoped rule read always-on: Crush reads Cursor's copy in "
        ".cursor/rules/ whole, without its file patterns"
    ]
    assert "globs: **/*.py" in (project / ".cursor/rules/py.mdc").read_text()


def test_remove_keeps_crush_md_to_the_rules_left(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    """Beside a team's own `AGENTS.md`: adding a second rule keeps the first's section in
    `CRUSH.md`, removing one leaves the other's, removing the last removes the file; the
    team's `AGENTS.md` is never touched."""
    h.write_item(registry, "rule", "one", "First.\n")
    h.write_item(registry, "rule", "two", "Second.\n")
    (project / "AGENTS.md").write_bytes(TEAM_AGENTS)
    cli.ok("add", str(registry), "one", "--crush", cwd=project, extra=BIN)
    cli.ok("add", str(registry), "two", "--crush", cwd=project, extra=BIN)
    sections = parse_sections((project / "CRUSH.md").read_bytes())
    assert sections == {"one": b"First.\n", "two": b"Second.\n"}
    cli.ok("remove", "one", cwd=project, extra=BIN)
    assert parse_sections((project / "CRUSH.md").read_bytes()) == {"two": b"Second.\n"}
    cli.ok("remove", "two", cwd=project, extra=BIN)
    assert not (project / "CRUSH.md").exists()
    assert (project / "AGENTS.md").read_bytes() == TEAM_AGENTS


def test_a_cursor_passthrough_copy_serves_crush(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    """A `cursor:` block keeps Cursor's own copy (its frontmatter says more than "always
    on") with Crush's text: that copy serves Crush, `AGENTS.md` is not written, and
    neither client is told of a second read, for there is none. Beside Copilot, which
    reads `AGENTS.md` and is served there, the section stays, and both Cursor and Crush
    read the rule twice, as the run says."""
    (registry / "skills" / "p").mkdir(parents=True)
    (registry / "skills" / "p" / "RULE.md").write_text(
        "---\nschema: 1\ndescription: P\ncursor:\n  description: Mine\n---\n\nOne text.\n"
    )
    out = cli.ok("add", str(registry), "p", "--crush", "--cursor", cwd=project, extra=BIN)
    assert [f for f in h.files(project) if f.startswith((".cursor/", "AGENTS", "CRUSH"))] == [
        ".cursor/rules/p.mdc"
    ]
    assert _warnings(out) == []
    out = cli.ok("add", str(registry), "p", "--crush", "--cursor", "--copilot", cwd=project)
    assert parse_sections((project / "AGENTS.md").read_bytes()) == {"p": b"One text.\n"}
    # Only Cursor's frontmatter differs: the lines say so, not that the text differs.
    assert _warnings(out) == [
        "warning: cursor: 1 rule read twice (rule:p): its own copy, and Crush's text in "
        "AGENTS.md, which Cursor reads too (the frontmatter differs for Cursor, and Crush "
        "reads a project's rules from AGENTS.md)",
        "warning: crush: 1 rule read twice (rule:p): its compiled copy, and Cursor's copy in "
        ".cursor/rules/, where Crush reads every file (the frontmatter differs for Cursor, so "
        "Cursor keeps a copy of its own)",
    ]


def test_only_a_recorded_crush_section_in_the_other_file_is_misplaced() -> None:
    """Every item is rendered again only when Crush's recorded sections change files:
    a team's own `AGENTS.md` alone (Crush never selected) keeps reuse."""
    from upskill.lifecycle.compiled import misplaced
    from upskill.state.lockfile import OutputRecord, Owner

    def record(path: str, *clients: str) -> dict[str, OutputRecord]:
        return {path: OutputRecord(path, "0" * 64, 1, tuple(Owner("rule:a", c) for c in clients))}

    aside = {"crush": "CRUSH.md"}
    assert not misplaced({}, aside)
    assert not misplaced(record("AGENTS.md", "codex"), aside)
    assert misplaced(record("AGENTS.md", "codex", "crush"), aside)
    assert not misplaced(record("CRUSH.md", "crush"), aside)
    assert misplaced(record("CRUSH.md", "crush"), {})
    assert not misplaced(record("AGENTS.md", "crush"), {})
