"""A rule whose text differs for Copilot CLI, installed for Codex and Copilot: Codex
reads a project's rules from `AGENTS.md` (codex 0.171.0: or an `AGENTS.override.md` it
reads instead, which would hide a team's `AGENTS.md`), Copilot CLI 1.0.102 reads
`AGENTS.md` too, so Copilot reads the rule twice, in its own copy and in Codex's text.
The install says so in one line naming the rules, the same pairs `doctor` lists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

BIN = {"PATH": "/usr/bin:/bin"}
RULES = {
    "commits": "---\nschema: 1\ndescription: Commits\ncopilot:\n  excludeAgent: code-review\n"
    "---\n\n## Commits\n\nWrite imperative subjects.\n",
    "secrets": "---\nschema: 1\ndescription: Secrets\n---\n\n## Secrets\n\nNo tokens.\n\n"
    "<!-- @client:copilot -->\nUse content exclusion.\n<!-- @endclient -->\n",
    "style": "---\nschema: 1\ndescription: Style\n---\n\n## Style\n\nUse ruff.\n",
}
LINE = (
    "warning: copilot: 2 rules read twice (rule:commits, rule:secrets): its own copy, and "
    "Codex CLI's text in AGENTS.md, which GitHub Copilot CLI reads too (the text differs "
    "for GitHub Copilot CLI, and Codex CLI reads a project's rules from AGENTS.md)"
)


def _source(tmp_path: Path) -> Path:
    root = tmp_path / "reg"
    for name, text in RULES.items():
        (root / "skills" / name).mkdir(parents=True)
        (root / "skills" / name / "RULE.md").write_text(text)
    return root


def _twice(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "read twice" in line]


@pytest.mark.parametrize("team", [None, "# Team\n\n<!-- upskill:begin -->\n<!-- upskill:end -->\n"])
def test_copilot_beside_codex_is_told_which_rules_it_reads_twice(
    cli, project, tmp_path, team: str | None
) -> None:  # type: ignore[no-untyped-def]
    if team is not None:
        (project / "AGENTS.md").write_text(team)
    out = cli.ok("add", str(_source(tmp_path)), "--codex", "--copilot", cwd=project, extra=BIN)
    assert _twice(out.stderr) == [LINE]
    # `style` reads the same for both: Copilot is served by AGENTS.md, with no copy.
    assert sorted(p.name for p in (project / ".github/instructions").iterdir()) == [
        "commits.instructions.md",
        "secrets.instructions.md",
    ]
    report = json.loads(cli.run("doctor", "--json", cwd=project, extra=BIN).stdout)
    assert [(d["client"], d["name"], d["trees"]) for d in report["duplicate_reads"]] == [
        ("copilot", "commits", [".github/instructions/", "AGENTS.md"]),
        ("copilot", "secrets", [".github/instructions/", "AGENTS.md"]),
    ]


def test_nothing_is_said_without_codex(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = cli.ok("add", str(_source(tmp_path)), "--copilot", "--claude", cwd=project, extra=BIN)
    assert _twice(out.stderr) == []
