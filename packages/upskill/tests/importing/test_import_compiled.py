"""A compiled AGENTS.md (issue 15, item 4) imports back as the rules it was compiled
from, one per section; a team file's own text around the managed block stays one
always-on rule of its own."""

from __future__ import annotations

from pathlib import Path

from upskill.render.compiled import compile_document

TEAM = "# Team\n\nBe kind.\n\n"


def test_sections_of_a_managed_block_come_back_as_rules(cli, project: Path) -> None:  # type: ignore[no-untyped-def]
    compiled = compile_document({"style": b"Use tabs.\n", "commits": b"Imperative subjects.\n"})
    block = b"<!-- upskill:begin -->\n" + compiled + b"<!-- upskill:end -->\n"
    (project / "AGENTS.md").write_bytes(TEAM.encode() + block)
    cli.ok("import", "--from", "codex", cwd=project)
    rules = project / ".upskill/registry/rules"
    assert sorted(p.name for p in rules.iterdir()) == ["agents-md", "commits", "style"]
    assert (rules / "style/RULE.md").read_text().endswith("\n\nUse tabs.\n")
    team = (rules / "agents-md/RULE.md").read_text()
    assert "Be kind." in team and "upskill:begin" not in team and "module-begin" not in team


def test_a_whole_compiled_file_is_only_its_sections(cli, project: Path) -> None:  # type: ignore[no-untyped-def]
    (project / "AGENTS.md").write_bytes(compile_document({"style": b"Use tabs.\n"}))
    cli.ok("import", "--from", "codex", cwd=project)
    rules = project / ".upskill/registry/rules"
    assert sorted(p.name for p in rules.iterdir()) == ["style"]
