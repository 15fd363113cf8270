"""Compiled instructions files end to end (issue 15, item 4): `AGENTS.md` for Codex
(and Amp, Junie, Zed), `~/.gemini/GEMINI.md` for Gemini CLI at user level, in
agents-md-compiler's format (Gemini's project file: test_lifecycle_gemini_md.py).

upskill owns such a file when it is absent or was written by upskill, and never
rewrites a team's own: it fills a managed block there when the team opts in, and
otherwise says which rules the client will not see. Clients that read the compiled
file get an always-on rule there once instead of twice."""

from __future__ import annotations

import json
from pathlib import Path

from agents_md_compiler.rendering import declared_format
from upskill.render.compiled import compile_document, parse_sections

BIN = {"PATH": "/usr/bin:/bin"}  # no client CLI on PATH: the flags decide
TEAM = b"# Team\n\nRun the tests before you commit.\n"
BLOCK = b"<!-- upskill:begin -->\n<!-- upskill:end -->\n"


def _sections(path: Path) -> dict[str, bytes] | None:
    return parse_sections(path.read_bytes())


def _outputs(project: Path) -> dict[str, list[str]]:
    lock = json.loads((project / ".upskill-lock.json").read_text())
    return {o["path"]: o["owners"] for o in lock["outputs"]}


def test_codex_gets_a_compiled_agents_md_that_agents_md_compiler_recognises(
    cli, project, registry
) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), "style", "commits", "--codex", cwd=project, extra=BIN)
    data = (project / "AGENTS.md").read_bytes()
    assert data == compile_document(
        {"commits": b"Write imperative subjects.\n", "style": b"Use four spaces.\n"}
    )
    assert declared_format(data[:512]) == 2  # agents-md-compiler's generated header
    assert _outputs(project)["AGENTS.md"] == ["rule:commits@codex", "rule:style@codex"]
    assert not (project / "CLAUDE.md").exists()


def test_one_rule_changes_and_the_other_sections_are_read_back(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), "style", "commits", "--codex", cwd=project, extra=BIN)
    h.write_item(registry, "rule", "style", "Use tabs.\n")
    cli.ok("update", "style", cwd=project, extra=BIN)
    assert _sections(project / "AGENTS.md") == {
        "commits": b"Write imperative subjects.\n",
        "style": b"Use tabs.\n",
    }
    cli.ok("remove", "style", cwd=project, extra=BIN)
    assert _sections(project / "AGENTS.md") == {"commits": b"Write imperative subjects.\n"}
    cli.ok("remove", "commits", cwd=project, extra=BIN)
    assert not (project / "AGENTS.md").exists()  # the last rule took the file with it


def test_a_hand_edit_is_kept_and_reported_until_forced(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), "style", "--codex", cwd=project, extra=BIN)
    edited = (project / "AGENTS.md").read_bytes() + b"\nMy own line.\n"
    (project / "AGENTS.md").write_bytes(edited)
    h.write_item(registry, "rule", "style", "Use tabs.\n")
    out = cli.ok("update", cwd=project, extra=BIN)
    assert (project / "AGENTS.md").read_bytes() == edited
    assert "AGENTS.md" in out.stderr + out.stdout
    doctor = cli.run("doctor", cwd=project, extra=BIN)
    assert doctor.returncode == 1 and "AGENTS.md" in doctor.stdout
    cli.ok("update", "--force", cwd=project, extra=BIN)
    assert _sections(project / "AGENTS.md") == {"style": b"Use tabs.\n"}


def test_a_team_agents_md_is_never_rewritten(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    (project / "AGENTS.md").write_bytes(TEAM)
    out = cli.ok("add", str(registry), "style", "--codex", "--opencode", cwd=project, extra=BIN)
    assert (project / "AGENTS.md").read_bytes() == TEAM
    assert (
        "warning: codex: 1 rule not delivered (AGENTS.md is the team's own file; add the lines "
        "`<!-- upskill:begin -->` and `<!-- upskill:end -->` to it to let upskill manage a "
        "block there)"
    ) in out.stderr.splitlines()
    # opencode reads AGENTS.md too, but the rule is not there: it keeps its own copy
    assert (project / ".agents/rules/style/RULE.md").is_file()


def test_a_managed_block_in_a_team_file(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    head, tail = TEAM + b"\n", b"\n## Footer\n"
    (project / "AGENTS.md").write_bytes(head + BLOCK + tail)
    cli.ok("add", str(registry), "style", "--codex", cwd=project, extra=BIN)
    compiled = compile_document({"style": b"Use four spaces.\n"})
    expected = head + b"<!-- upskill:begin -->\n" + compiled + b"<!-- upskill:end -->\n" + tail
    assert (project / "AGENTS.md").read_bytes() == expected
    # The team edits around the block: upskill still updates the block, and only it.
    around = expected.replace(b"## Footer", b"## Footer, edited")
    (project / "AGENTS.md").write_bytes(around)
    h.write_item(registry, "rule", "style", "Use tabs.\n")
    cli.ok("update", cwd=project, extra=BIN)
    now = (project / "AGENTS.md").read_bytes()
    assert now == around.replace(compiled, compile_document({"style": b"Use tabs.\n"}))
    # Removing the last rule empties the block and keeps the team's file.
    cli.ok("remove", "style", cwd=project, extra=BIN)
    assert (project / "AGENTS.md").read_bytes() == head + BLOCK + tail.replace(
        b"Footer", b"Footer, edited"
    )


def test_a_block_edited_inside_is_kept(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    (project / "AGENTS.md").write_bytes(TEAM + BLOCK)
    cli.ok("add", str(registry), "style", "--codex", cwd=project, extra=BIN)
    edited = (project / "AGENTS.md").read_bytes().replace(b"Use four spaces.", b"Use 3 spaces.")
    (project / "AGENTS.md").write_bytes(edited)
    h.write_item(registry, "rule", "style", "Use tabs.\n")
    cli.ok("update", cwd=project, extra=BIN)
    assert (project / "AGENTS.md").read_bytes() == edited


def test_clients_reading_the_compiled_file_get_each_rule_once(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    args = ("add", str(registry), "style", "--codex", "--opencode", "--claude", "--copilot")
    cli.ok(*args, cwd=project, extra=BIN)
    # opencode and Copilot read AGENTS.md: no copy of their own, and opencode.json lists
    # no rule glob; Claude reads it only through an import upskill does not add.
    assert not (project / ".agents/rules").exists()
    assert not (project / ".github/instructions").exists()
    assert not (project / "opencode.json").exists()
    assert (project / ".claude/rules/style.md").is_file()
    owners = _outputs(project)["AGENTS.md"]
    assert owners == ["rule:style@codex", "rule:style@copilot", "rule:style@opencode"]
    cli.ok("update", "--force", cwd=project, extra=BIN)
    assert not (project / "CLAUDE.md").exists()
    # Without Codex, opencode and Copilot get their own copies back.
    cli.ok("add", str(registry), "style", "--opencode", "--claude", "--copilot", cwd=project)
    assert not (project / "AGENTS.md").exists()
    assert (project / ".agents/rules/style/RULE.md").is_file()
    assert (project / ".github/instructions/style.instructions.md").is_file()


def test_global_scope_writes_each_clients_own_file(cli, registry, tmp_path) -> None:  # type: ignore[no-untyped-def]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    cli.ok("add", "-g", str(registry), "style", "--codex", "--gemini", cwd=elsewhere, extra=BIN)
    expected = compile_document({"style": b"Use four spaces.\n"})
    assert (cli.home / ".codex/AGENTS.md").read_bytes() == expected
    assert (cli.home / ".gemini/GEMINI.md").read_bytes() == expected
    assert not (cli.home / "AGENTS.md").exists()


def test_dry_run_writes_nothing(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    (project / "AGENTS.md").write_bytes(TEAM + BLOCK)
    before = h.snapshot(project)
    cli.ok("add", str(registry), "style", "--codex", "--dry-run", cwd=project, extra=BIN)
    assert h.snapshot(project) == before


def test_claude_is_served_by_a_block_it_imports(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    """A team AGENTS.md gets `CLAUDE.md`'s `@AGENTS.md`, so a rule in its managed block
    reaches Claude there; a team CLAUDE.md that does not import it keeps Claude's copy."""
    (project / "AGENTS.md").write_bytes(TEAM + BLOCK)
    cli.ok("add", str(registry), "style", "--codex", "--claude", cwd=project, extra=BIN)
    assert (project / "CLAUDE.md").read_bytes() == b"@AGENTS.md\n"
    assert not (project / ".claude/rules").exists()
    assert _outputs(project)["AGENTS.md"] == ["rule:style@claude", "rule:style@codex"]


def test_claude_keeps_its_copy_when_claude_md_does_not_import(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    (project / "AGENTS.md").write_bytes(TEAM + BLOCK)
    (project / "CLAUDE.md").write_bytes(b"# Our Claude notes\n")
    cli.ok("add", str(registry), "style", "--codex", "--claude", cwd=project, extra=BIN)
    assert (project / "CLAUDE.md").read_bytes() == b"# Our Claude notes\n"
    assert (project / ".claude/rules/style.md").is_file()
