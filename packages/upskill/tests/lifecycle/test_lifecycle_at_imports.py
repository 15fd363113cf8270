"""Where upskill says a rule holds an `@word` Gemini CLI reads as an import
(`render.imports`): `upskill lint`, and the install of the rule for Gemini."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from upskill.render.imports import import_note

RULE = """---
schema: 1
name: team-review
description: Who reviews what
---

## Review

- Ask @security-team before merging auth changes.
- Mail ops@example.com or write `@oncall` in the channel.

<!-- @client:gemini -->

Gemini: also ping @gemini-only.

<!-- @endclient -->
<!-- @client:claude -->

Claude: ping @claude-only.

<!-- @endclient -->
"""
NOTE = import_note("Gemini CLI", "{}")


def _registry(tmp_path: Path) -> Path:
    rule = tmp_path / "registry" / "skills" / "team-review" / "RULE.md"
    rule.parent.mkdir(parents=True)
    rule.write_text(RULE)
    return rule


def test_lint_names_the_rule_and_each_word(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    rule = _registry(tmp_path)
    out = cli.run("lint", "--json", str(rule), cwd=tmp_path)
    assert out.returncode == 0, out.stdout
    found = [f for f in json.loads(out.stdout)["findings"] if f["rule"] == "at-import"]
    assert [(f["path"], f["line"], f["severity"], f["message"]) for f in found] == [
        ("registry/skills/team-review/RULE.md", 9, "warning", NOTE.format("security-team")),
        ("registry/skills/team-review/RULE.md", 14, "warning", NOTE.format("gemini-only.")),
    ]
    strict = cli.run("lint", "--strict", str(rule), cwd=tmp_path)
    assert strict.returncode == 1


@pytest.mark.parametrize("flags", [("--gemini",), ("--gemini", "-g")])
def test_install_for_gemini_reports_each_word(cli, tmp_path: Path, flags: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    rule = _registry(tmp_path)
    work = tmp_path / "work"
    (work / ".git").mkdir(parents=True)
    out = cli.ok("add", str(rule.parents[2]), *flags, cwd=work)
    lines = [ln for ln in out.stderr.splitlines() if "as an import" in ln]
    assert lines == [
        f"warning: rule:team-review (gemini): {rule}: {NOTE.format(w)}"
        for w in ("security-team", "gemini-only.")  # up to a space
    ]


def test_install_for_other_clients_says_nothing(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    rule = _registry(tmp_path)
    work = tmp_path / "work"
    (work / ".git").mkdir(parents=True)
    out = cli.ok("add", str(rule.parents[2]), "--codex", "--claude", cwd=work)
    assert "as an import" not in out.stderr
