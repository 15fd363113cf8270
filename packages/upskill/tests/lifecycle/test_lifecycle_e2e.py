"""The whole lifecycle on a pinned git tag, two clients, both scopes (the "done" walk)."""

from __future__ import annotations

import json

import pytest


@pytest.mark.black_box  # the done walk runs the real console script, call by call
@pytest.mark.parametrize("scope", ["project", "global"])
def test_add_edit_update_doctor_force_remove(scope, cli, h, make_git_source, tmp_path):
    src = make_git_source("acme/skills")
    h.write_item(src.work, "rule", "style", "Use four spaces.\n")
    h.write_item(src.work, "skill", "review", "Review carefully.\n")
    src.commit("v1")
    src.tag("v1.0.0")
    h.write_item(src.work, "rule", "style", "Use tabs (unreleased).\n")
    src.commit("main moves on")

    if scope == "project":
        cwd = tmp_path / "proj"
        cwd.mkdir()
        (cwd / ".git").mkdir()
        root, flags = cwd, ["--project"]
        copilot_rule = ".github/instructions/style.instructions.md"
    else:
        cwd = tmp_path / "elsewhere"  # not a git repo: global is automatic
        cwd.mkdir()
        root, flags = cli.home, []
        copilot_rule = ".copilot/instructions/style.instructions.md"  # where Copilot CLI reads

    out = cli.ok("add", "acme/skills@v1.0.0", "--claude", "--copilot", *flags, cwd=cwd)
    assert "2 items installed for claude, copilot" in out.stderr
    rule = root / ".claude/rules/style.md"
    # In a project Copilot CLI also reads .claude/rules: Claude's copy tells it to skip it.
    hide = "excludeAgent: coding-agent\n" if scope == "project" else ""
    assert (
        rule.read_text()
        == f"---\nname: style\ndescription: Use when testing style\n{hide}---\n\nUse four spaces.\n"
    )
    assert (root / copilot_rule).is_file()
    assert not (root / ".agents").exists()  # opencode not selected
    lock = json.loads((root / ".upskill-lock.json").read_text())
    style = next(i for i in lock["items"] if i["name"] == "style")
    assert style["source"] == "github:acme/skills@v1.0.0"
    assert style["ref"] == "v1.0.0"
    assert style["clients"] == ["claude", "copilot"]
    assert len(style["commit"]) == 40

    # A hand edit survives update, which says so and exits 0.
    rule.write_text(rule.read_text() + "\nLocal note.\n")
    edited = rule.read_bytes()
    out = cli.ok("update", *flags, cwd=cwd)
    assert "kept local edit: .claude/rules/style.md" in out.stderr
    assert rule.read_bytes() == edited
    assert "Use four spaces." in rule.read_text()  # still pinned to the tag

    # doctor reports the edit and exits 1.
    out = cli.run("doctor", "--json", *flags, cwd=cwd)
    assert out.returncode == 1
    report = json.loads(out.stdout)
    assert [m["path"] for m in report["modified_outputs"]] == [".claude/rules/style.md"]
    assert report["missing_outputs"] == [] and report["orphan_entries"] == []
    assert report["missing_plugins"] == [] and report["skipped_plugins"] == []

    # --force replaces it and lists what was discarded.
    out = cli.ok("update", "--force", *flags, cwd=cwd)
    assert "discarded local edit: .claude/rules/style.md" in out.stderr
    assert "Local note." not in rule.read_text()
    assert cli.run("doctor", *flags, cwd=cwd).returncode == 0

    # Removing everything from the source leaves no output behind.
    out = cli.ok("remove", "--source", "github:acme/skills@v1.0.0", *flags, cwd=cwd)
    assert "2 items removed" in out.stderr
    assert not (root / ".claude").exists()
    assert not (root / ".github").exists() and not (root / ".copilot").exists()
    lock = json.loads((root / ".upskill-lock.json").read_text())
    assert lock == {"schema": 1, "items": [], "bundles": []}
    assert not (root / "CLAUDE.md").exists()  # no AGENTS.md: no `@AGENTS.md` to import
