"""A rule whose text differs for Copilot CLI, installed for Codex and Copilot (issue 15,
items 3 and 4). Codex 0.171.0 reads a project's rules from `AGENTS.md`, or from an
`AGENTS.override.md` it reads *instead*; Copilot CLI 1.0.102 reads `AGENTS.md` and not
the override. Where upskill owns `AGENTS.md`, Codex's rules go to the override, so
Copilot reads each rule once: its own copy, or the text `AGENTS.md` keeps for it.
Beside a team's own `AGENTS.md` (managed block or not) no override is written, since
it would hide the team's file from Codex: Copilot reads such a rule twice, and the
install says so in one line naming the rules, the same pairs `doctor` lists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from upskill.render.compiled import compile_document, parse_sections

BIN = {"PATH": "/usr/bin:/bin"}
RULES = {
    "commits": "---\nschema: 1\ndescription: Commits\ncopilot:\n  excludeAgent: code-review\n"
    "---\n\n## Commits\n\nWrite imperative subjects.\n",
    "secrets": "---\nschema: 1\ndescription: Secrets\n---\n\n## Secrets\n\nNo tokens.\n\n"
    "<!-- @client:copilot -->\nUse content exclusion.\n<!-- @endclient -->\n",
    "style": "---\nschema: 1\ndescription: Style\n---\n\n## Style\n\nUse ruff.\n",
}
CODEX = {
    "commits": b"## Commits\n\nWrite imperative subjects.\n",
    "secrets": b"## Secrets\n\nNo tokens.\n",
    "style": b"## Style\n\nUse ruff.\n",
}
BLOCK = "# Team\n\n<!-- upskill:begin -->\n<!-- upskill:end -->\n"
TEAM = b"# Team\n\nRun the tests before you commit.\n"
# `commits` reads the same for Copilot and Codex: only its frontmatter (`excludeAgent`)
# differs; `secrets` has a Copilot-only block: its text differs. Each line says which.
LINES = [
    "warning: copilot: 1 rule read twice (rule:commits): its own copy, and Codex CLI's text "
    "in AGENTS.md, which GitHub Copilot CLI reads too (the frontmatter differs for GitHub "
    "Copilot CLI, and Codex CLI reads a project's rules from AGENTS.md)",
    "warning: copilot: 1 rule read twice (rule:secrets): its own copy, and Codex CLI's text "
    "in AGENTS.md, which GitHub Copilot CLI reads too (the text differs for GitHub Copilot "
    "CLI, and Codex CLI reads a project's rules from AGENTS.md)",
]
OWN = [
    ".github/instructions/commits.instructions.md",
    ".github/instructions/secrets.instructions.md",
]


def _source(tmp_path: Path, names: tuple[str, ...] = tuple(RULES)) -> Path:
    root = tmp_path / "reg"
    for name in names:
        (root / "skills" / name).mkdir(parents=True)
        (root / "skills" / name / "RULE.md").write_text(RULES[name])
    return root


def _twice(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "read twice" in line]


def _outputs(project: Path) -> dict[str, list[str]]:
    lock = json.loads((project / ".upskill-lock.json").read_text())
    return {o["path"]: o["owners"] for o in lock["outputs"]}


def _tree(project: Path) -> list[str]:
    """Every file upskill may have written (the lock and state aside)."""
    rels = (p.relative_to(project) for p in project.rglob("*") if p.is_file())
    return sorted(str(r) for r in rels if r.parts[0] not in (".git", ".upskill"))


def _doctor(cli, project: Path) -> dict:  # type: ignore[no-untyped-def,type-arg]
    return json.loads(cli.run("doctor", "--json", cwd=project, extra=BIN).stdout)


def test_codex_reads_its_rules_from_the_override_and_copilot_each_once(
    cli, project, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    out = cli.ok("add", str(_source(tmp_path)), "--codex", "--copilot", cwd=project, extra=BIN)
    assert _twice(out.stderr) == []
    assert _tree(project) == [*OWN, ".upskill-lock.json", "AGENTS.md", "AGENTS.override.md"]
    # Codex: every rule, in its own text; it no longer reads AGENTS.md.
    assert (project / "AGENTS.override.md").read_bytes() == compile_document(CODEX)
    # Copilot: `style` reads the same for it, kept in AGENTS.md, and no copy of its own.
    assert (project / "AGENTS.md").read_bytes() == compile_document({"style": CODEX["style"]})
    assert (project / OWN[1]).read_text() == (
        "---\nname: secrets\ndescription: Secrets\napplyTo: '**'\n---\n\n"
        "## Secrets\n\nNo tokens.\n\nUse content exclusion.\n"
    )
    assert _outputs(project) == {
        "AGENTS.md": ["rule:style@copilot"],
        "AGENTS.override.md": ["rule:commits@codex", "rule:secrets@codex", "rule:style@codex"],
        OWN[0]: ["rule:commits@copilot"],
        OWN[1]: ["rule:secrets@copilot"],
    }
    report = _doctor(cli, project)
    assert report["duplicate_reads"] == [] and report["hidden_instructions"] == []
    # Nothing changed: nothing is written again.
    again = cli.ok("update", cwd=project, extra=BIN)
    assert "Already up to date" in again.stderr or _twice(again.stderr) == []
    assert (project / "AGENTS.override.md").read_bytes() == compile_document(CODEX)


def test_without_a_rule_read_twice_codex_stays_in_agents_md(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", str(_source(tmp_path, ("style",))), "--codex", "--copilot", "--amp",
           cwd=project, extra=BIN)  # fmt: skip
    assert _tree(project) == [".upskill-lock.json", "AGENTS.md"]
    assert _outputs(project)["AGENTS.md"] == [
        "rule:style@amp",
        "rule:style@codex",
        "rule:style@copilot",
    ]


def test_beside_amp_the_override_would_remove_no_second_read(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Amp compiles the same text into AGENTS.md: Copilot reads it there with or without
    Codex, so Codex stays where it is and the line names the rules."""
    out = cli.ok("add", str(_source(tmp_path, ("secrets",))), "--codex", "--copilot", "--amp",
                 cwd=project, extra=BIN)  # fmt: skip
    assert not (project / "AGENTS.override.md").exists()
    assert _outputs(project)["AGENTS.md"] == ["rule:secrets@amp", "rule:secrets@codex"]
    assert len(_twice(out.stderr)) == 1


def test_a_rule_with_resource_files_read_twice_says_so(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The same text and frontmatter for both, but a resource file: only Copilot's copy
    carries it (Codex reads one instructions file), and the line says that, not that the
    text differs."""
    (project / "AGENTS.md").write_text(BLOCK)
    root = tmp_path / "reg"
    (root / "skills" / "r").mkdir(parents=True)
    (root / "skills" / "r" / "RULE.md").write_text(
        "---\nschema: 1\ndescription: R\n---\n\nSee [notes](notes.md).\n"
    )
    (root / "skills" / "r" / "notes.md").write_text("Notes.\n")
    out = cli.ok("add", str(root), "--codex", "--copilot", cwd=project, extra=BIN)
    assert _twice(out.stderr) == [
        "warning: copilot: 1 rule read twice (rule:r): its own copy, and Codex CLI's text in "
        "AGENTS.md, which GitHub Copilot CLI reads too (the rule's resource files come only "
        "with GitHub Copilot CLI's copy, and Codex CLI reads a project's rules from AGENTS.md)"
    ]


@pytest.mark.parametrize("team", [BLOCK, TEAM.decode()])
def test_beside_a_team_agents_md_copilot_is_told_which_rules_it_reads_twice(
    cli, project, tmp_path, team: str
) -> None:  # type: ignore[no-untyped-def]
    (project / "AGENTS.md").write_text(team)
    out = cli.ok("add", str(_source(tmp_path)), "--codex", "--copilot", cwd=project, extra=BIN)
    assert not (project / "AGENTS.override.md").exists()
    if team == BLOCK:
        assert _twice(out.stderr) == LINES
        # `style` reads the same for both: Copilot is served by AGENTS.md, with no copy.
        assert sorted(p.name for p in (project / ".github/instructions").iterdir()) == [
            "commits.instructions.md",
            "secrets.instructions.md",
        ]
        assert [(d["client"], d["name"], d["trees"]) for d in _doctor(cli, project)[
            "duplicate_reads"
        ]] == [
            ("copilot", "commits", [".github/instructions/", "AGENTS.md"]),
            ("copilot", "secrets", [".github/instructions/", "AGENTS.md"]),
        ]  # fmt: skip
    else:
        assert (project / "AGENTS.md").read_bytes() == TEAM
        assert "warning: codex: 3 rules not delivered (AGENTS.md is the team's own file" in (
            out.stderr
        )


def test_dropping_copilot_moves_codex_back(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", str(_source(tmp_path)), "--codex", "--copilot", cwd=project, extra=BIN)
    cli.ok("update", "--codex", cwd=project, extra=BIN)
    assert _tree(project) == [".upskill-lock.json", "AGENTS.md"]
    assert (project / "AGENTS.md").read_bytes() == compile_document(CODEX)
    cli.ok("update", "--codex", "--copilot", cwd=project, extra=BIN)
    assert _tree(project) == [*OWN, ".upskill-lock.json", "AGENTS.md", "AGENTS.override.md"]


def test_removing_the_rules_read_twice_moves_codex_back(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", str(_source(tmp_path)), "--codex", "--copilot", cwd=project, extra=BIN)
    cli.ok("remove", "commits", "secrets", cwd=project, extra=BIN)
    assert _tree(project) == [".upskill-lock.json", "AGENTS.md"]
    assert (project / "AGENTS.md").read_bytes() == compile_document({"style": CODEX["style"]})
    assert _outputs(project) == {"AGENTS.md": ["rule:style@codex", "rule:style@copilot"]}
    assert _doctor(cli, project)["duplicate_reads"] == []


def test_adding_a_rule_read_twice_moves_the_installed_ones(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`add` renders the new rule only: the installed rules' Codex sections are read
    back from AGENTS.md and move to the override, Copilot's stay in AGENTS.md."""
    source = _source(tmp_path)
    cli.ok("add", str(source), "style", "--codex", "--copilot", cwd=project, extra=BIN)
    assert _tree(project) == [".upskill-lock.json", "AGENTS.md"]
    out = cli.ok("add", str(source), "secrets", "--codex", "--copilot", cwd=project, extra=BIN)
    assert _twice(out.stderr) == []
    assert parse_sections((project / "AGENTS.override.md").read_bytes()) == {
        "secrets": CODEX["secrets"],
        "style": CODEX["style"],
    }
    assert _outputs(project) == {
        "AGENTS.md": ["rule:style@copilot"],
        "AGENTS.override.md": ["rule:secrets@codex", "rule:style@codex"],
        OWN[1]: ["rule:secrets@copilot"],
    }


def test_a_team_agents_md_appearing_later_takes_codex_back(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    source = _source(tmp_path, ("commits", "secrets"))
    cli.ok("add", str(source), "--codex", "--copilot", cwd=project, extra=BIN)
    # Nothing is left for the other clients in AGENTS.md: Codex's rules are all there is.
    assert _tree(project) == [*OWN, ".upskill-lock.json", "AGENTS.override.md"]
    (project / "AGENTS.md").write_text(BLOCK)
    report = _doctor(cli, project)
    assert report["hidden_instructions"] == [
        {"client": "codex", "path": "AGENTS.md", "hidden_by": "AGENTS.override.md"}
    ]
    out = cli.run("doctor", cwd=project, extra=BIN)
    assert out.returncode == 1
    assert "  codex: AGENTS.md is hidden by AGENTS.override.md\n" in out.stdout
    cli.ok("update", cwd=project, extra=BIN)
    assert _tree(project) == [*OWN, ".upskill-lock.json", "AGENTS.md"]
    text = (project / "AGENTS.md").read_bytes()
    sections = {k: CODEX[k] for k in ("commits", "secrets")}
    assert text == b"# Team\n\n<!-- upskill:begin -->\n" + compile_document(sections) + (
        b"<!-- upskill:end -->\n"
    )
    assert _doctor(cli, project)["hidden_instructions"] == []


def test_a_team_file_without_a_block_gets_codex_rules_reported(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The next run is an `add` of another rule: the installed rules are not rendered,
    and their Codex sections have nowhere to go but the team's file: said, not moved."""
    source = _source(tmp_path)
    cli.ok("add", str(source), "commits", "secrets", "--codex", "--copilot", cwd=project, extra=BIN)
    (project / "AGENTS.md").write_bytes(TEAM)
    out = cli.ok("add", str(source), "style", "--codex", "--copilot", cwd=project, extra=BIN)
    assert (project / "AGENTS.md").read_bytes() == TEAM
    assert not (project / "AGENTS.override.md").exists()
    assert "warning: codex: 1 rule not delivered (AGENTS.md is the team's own file" in out.stderr
    assert "warning: codex: 2 rules not delivered (AGENTS.md is the team's own file" in out.stderr


def test_a_hand_edit_of_the_override_is_kept_and_reported(cli, h, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    source = _source(tmp_path)
    cli.ok("add", str(source), "--codex", "--copilot", cwd=project, extra=BIN)
    edited = (project / "AGENTS.override.md").read_bytes() + b"\nMy own line.\n"
    (project / "AGENTS.override.md").write_bytes(edited)
    (source / "skills" / "style" / "RULE.md").write_text(RULES["style"] + "\nMore.\n")
    cli.ok("update", cwd=project, extra=BIN)
    assert (project / "AGENTS.override.md").read_bytes() == edited
    assert [m["path"] for m in _doctor(cli, project)["modified_outputs"]] == ["AGENTS.override.md"]
    cli.ok("update", "--force", cwd=project, extra=BIN)
    assert parse_sections((project / "AGENTS.override.md").read_bytes()) == {
        **CODEX,
        "style": b"## Style\n\nUse ruff.\n\nMore.\n",
    }


def test_nothing_is_said_without_codex(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = cli.ok("add", str(_source(tmp_path)), "--copilot", "--claude", cwd=project, extra=BIN)
    assert _twice(out.stderr) == []
    assert not (project / "AGENTS.override.md").exists()


def test_copilot_expanding_a_claude_md_import_is_listed(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Copilot CLI 1.0.102 reads AGENTS.md and expands CLAUDE.md's `@AGENTS.md`: the
    whole file reaches it twice. upskill leaves the team's CLAUDE.md as it is and says so."""
    (project / "AGENTS.md").write_bytes(TEAM)
    (project / "CLAUDE.md").write_text("# Claude\n\n@AGENTS.md\n")
    cli.ok("add", str(_source(tmp_path, ("style",))), "--copilot", cwd=project, extra=BIN)
    assert _doctor(cli, project)["duplicate_reads"] == [
        {
            "client": "copilot",
            "kind": "file",
            "name": "AGENTS.md",
            "trees": ["AGENTS.md", "CLAUDE.md"],
        }
    ]
    out = cli.run("doctor", cwd=project, extra=BIN)
    assert "  copilot: file AGENTS.md in AGENTS.md, CLAUDE.md\n" in out.stdout
    assert (project / "CLAUDE.md").read_text() == "# Claude\n\n@AGENTS.md\n"
    (project / "CLAUDE.md").write_text("# Claude\n\nSee AGENTS.md.\n")
    assert _doctor(cli, project)["duplicate_reads"] == []


@pytest.mark.parametrize("override", [TEAM, BLOCK.encode()])
def test_a_team_override_is_never_written(cli, project, tmp_path, override: bytes) -> None:  # type: ignore[no-untyped-def]
    (project / "AGENTS.override.md").write_bytes(override)
    out = cli.ok("add", str(_source(tmp_path)), "--codex", "--copilot", cwd=project, extra=BIN)
    assert (project / "AGENTS.override.md").read_bytes() == override
    assert (project / "AGENTS.md").read_bytes() == compile_document(CODEX)
    assert _twice(out.stderr) == LINES
    assert "AGENTS.override.md" not in _outputs(project)


CODEX_ONLY = (
    "---\nschema: 1\ndescription: Tools\n---\n\n## Tools\n\nUse the CLI.\n\n"
    "<!-- @client:codex -->\nRun `codex exec` for batch work.\n<!-- @endclient -->\n"
)


@pytest.mark.parametrize("team", [None, BLOCK])
def test_a_rule_reading_differently_for_codex_and_amp(cli, project, tmp_path, team) -> None:  # type: ignore[no-untyped-def]
    """AGENTS.md holds one section per rule: beside Amp, Codex's own text goes to the
    override; beside a team AGENTS.md it cannot, and the install refuses, naming why."""
    (tmp_path / "reg" / "skills" / "tools").mkdir(parents=True)
    (tmp_path / "reg" / "skills" / "tools" / "RULE.md").write_text(CODEX_ONLY)
    if team is not None:
        (project / "AGENTS.md").write_text(team)
    argv = ("add", str(tmp_path / "reg"), "--codex", "--amp")
    if team is not None:
        out = cli.run(*argv, cwd=project, extra=BIN)
        assert out.returncode != 0
        assert "AGENTS.md: rule 'tools' reads differently for the clients sharing this file" in (
            out.stderr
        )
        assert (project / "AGENTS.md").read_text() == team
        return
    cli.ok(*argv, cwd=project, extra=BIN)
    assert _tree(project) == [".upskill-lock.json", "AGENTS.md", "AGENTS.override.md"]
    assert parse_sections((project / "AGENTS.md").read_bytes()) == {
        "tools": b"## Tools\n\nUse the CLI.\n"
    }
    assert parse_sections((project / "AGENTS.override.md").read_bytes()) == {
        "tools": b"## Tools\n\nUse the CLI.\n\nRun `codex exec` for batch work.\n"
    }
    assert _outputs(project) == {
        "AGENTS.md": ["rule:tools@amp"],
        "AGENTS.override.md": ["rule:tools@codex"],
    }
    # An `add` of another rule does not render `tools`: the lockfile keeps the move.
    (tmp_path / "reg" / "skills" / "style").mkdir()
    (tmp_path / "reg" / "skills" / "style" / "RULE.md").write_text(RULES["style"])
    cli.ok("add", str(tmp_path / "reg"), "style", "--codex", "--amp", cwd=project, extra=BIN)
    assert _outputs(project) == {
        "AGENTS.md": ["rule:style@amp", "rule:tools@amp"],
        "AGENTS.override.md": ["rule:style@codex", "rule:tools@codex"],
    }
    assert parse_sections((project / "AGENTS.override.md").read_bytes()) == {
        "style": CODEX["style"],
        "tools": b"## Tools\n\nUse the CLI.\n\nRun `codex exec` for batch work.\n",
    }


# Codex beside a Gemini CLI whose project settings name AGENTS.md (issue 15, item 3;
# `lifecycle.override`): Gemini CLI 0.61.0 reads its GEMINI.md whatever the list says, so
# Codex's rules move to AGENTS.override.md, a rule AGENTS.md keeps in Gemini's text serves
# Gemini there, every other rule reaches it through GEMINI.md, and Copilot CLI reads each
# rule once. Only a team's own GEMINI.md without a block keeps Codex in AGENTS.md (the one
# place left for Gemini's rules), and the install names the rules Copilot reads twice.
# The team's setting is never rewritten.
BOTH = '{"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}}\n'
ALONE = '{"context": {"fileName": "AGENTS.md"}}\n'


def _settings(project: Path, text: str) -> None:
    (project / ".gemini").mkdir()
    (project / ".gemini/settings.json").write_text(text)


@pytest.mark.parametrize("settings", [BOTH, ALONE], ids=["both", "agents-md-alone"])
def test_named_beside_its_own_file_codex_moves(cli, project, tmp_path, settings: str) -> None:  # type: ignore[no-untyped-def]
    """Gemini CLI 0.61.0 reads GEMINI.md whatever `context.fileName` lists."""
    _settings(project, settings)
    out = cli.ok("add", str(_source(tmp_path)), "--codex", "--copilot", "--gemini",
                 cwd=project, extra=BIN)  # fmt: skip
    assert [line for line in out.stderr.splitlines() if "read twice" in line] == []
    assert _tree(project) == [
        ".gemini/settings.json",
        ".gemini/upskill.md",
        *OWN,
        ".upskill-lock.json",
        "AGENTS.md",
        "AGENTS.override.md",
        "GEMINI.md",
    ]
    assert (project / ".gemini/settings.json").read_text() == settings
    assert (project / "AGENTS.override.md").read_bytes() == compile_document(CODEX)
    # `style` reads the same for all three: AGENTS.md keeps it for Copilot and Gemini.
    assert (project / "AGENTS.md").read_bytes() == compile_document({"style": CODEX["style"]})
    # Gemini's own file holds the two AGENTS.md no longer does, in its text (Codex's).
    gemini = {k: v for k, v in CODEX.items() if k != "style"}
    assert (project / ".gemini/upskill.md").read_bytes() == compile_document(gemini)
    assert (project / "GEMINI.md").read_text() == "@.gemini/upskill.md\n"
    assert _outputs(project) == {
        ".gemini/upskill.md": ["rule:commits@gemini", "rule:secrets@gemini"],
        "AGENTS.md": ["rule:style@copilot", "rule:style@gemini"],
        "AGENTS.override.md": ["rule:commits@codex", "rule:secrets@codex", "rule:style@codex"],
        "GEMINI.md": ["rule:commits@gemini", "rule:secrets@gemini"],
        OWN[0]: ["rule:commits@copilot"],
        OWN[1]: ["rule:secrets@copilot"],
    }
    report = _doctor(cli, project)
    assert report["duplicate_reads"] == [] and report["hidden_instructions"] == []


@pytest.mark.parametrize(
    ("settings", "gemini_md"),
    [(ALONE, "# Team Gemini\n"), (BOTH, "# Team Gemini\n")],  # the team's, no block
    ids=["agents-md-alone", "both"],
)
def test_beside_a_team_gemini_md_codex_stays_and_copilot_is_told(
    cli, project, tmp_path, settings: str, gemini_md: str | None
) -> None:  # type: ignore[no-untyped-def]
    _settings(project, settings)
    if gemini_md is not None:
        (project / "GEMINI.md").write_text(gemini_md)
    out = cli.ok("add", str(_source(tmp_path)), "--codex", "--copilot", "--gemini",
                 cwd=project, extra=BIN)  # fmt: skip
    assert not (project / "AGENTS.override.md").exists()
    assert (project / "AGENTS.md").read_bytes() == compile_document(CODEX)
    assert [line for line in out.stderr.splitlines() if "read twice" in line] == LINES
    assert (project / ".gemini/settings.json").read_text() == settings
    pairs = {(d["client"], d["name"]) for d in _doctor(cli, project)["duplicate_reads"]}
    assert pairs == {("copilot", "commits"), ("copilot", "secrets")}


# Claude Code beside Codex, with a team CLAUDE.md importing the AGENTS.md upskill compiles:
# Claude reads that file through the import, so a rule whose text differs for Claude moves
# Codex's rules to AGENTS.override.md (Claude keeps its own copy), and a rule with one text
# serves Claude in AGENTS.md, with no copy of its own.
TONE = (
    "---\nschema: 1\ndescription: Tone\n---\n\n## Tone\n\nBe brief.\n\n"
    "<!-- @client:claude -->\nClaude only.\n<!-- @endclient -->\n"
)
CLAUDE_MD = "# Team\n\n@AGENTS.md\n"


def _claude_source(tmp_path: Path, text: str) -> Path:
    root = tmp_path / "reg"
    (root / "skills/tone").mkdir(parents=True)
    (root / "skills/tone/RULE.md").write_text(text)
    return root


def test_a_team_claude_md_import_with_claude_text_moves_codex(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    (project / "CLAUDE.md").write_text(CLAUDE_MD)
    out = cli.ok("add", str(_claude_source(tmp_path, TONE)), "--codex", "--claude",
                 cwd=project, extra=BIN)  # fmt: skip
    assert [line for line in out.stderr.splitlines() if "twice" in line] == []
    assert _tree(project) == [".claude/rules/tone.md", ".upskill-lock.json",
                              "AGENTS.override.md", "CLAUDE.md"]  # fmt: skip
    assert (project / "AGENTS.override.md").read_bytes() == compile_document(
        {"tone": b"## Tone\n\nBe brief.\n"}
    )
    assert "Claude only." in (project / ".claude/rules/tone.md").read_text()
    assert (project / "CLAUDE.md").read_text() == CLAUDE_MD
    assert _doctor(cli, project)["duplicate_reads"] == []
    # Adding, then removing, an item the text of `tone` is not read for keeps the move:
    # the lockfile says Claude has its own copy of a rule Codex compiles.
    other = tmp_path / "other"
    (other / "skills/style").mkdir(parents=True)
    (other / "skills/style/RULE.md").write_text(RULES["style"])
    cli.ok("add", str(other), "--codex", "--claude", cwd=project, extra=BIN)
    assert (project / "AGENTS.override.md").is_file()
    assert _doctor(cli, project)["duplicate_reads"] == []
    cli.ok("remove", "style", cwd=project, extra=BIN)
    assert (project / "AGENTS.override.md").is_file()
    assert _doctor(cli, project)["duplicate_reads"] == []


def test_a_team_claude_md_import_serves_claude_a_shared_text(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    (project / "CLAUDE.md").write_text(CLAUDE_MD)
    shared = TONE.replace("<!-- @client:claude -->\nClaude only.\n<!-- @endclient -->\n", "")
    cli.ok("add", str(_claude_source(tmp_path, shared)), "--codex", "--claude",
           cwd=project, extra=BIN)  # fmt: skip
    assert _tree(project) == [".upskill-lock.json", "AGENTS.md", "CLAUDE.md"]
    assert _outputs(project)["AGENTS.md"] == ["rule:tone@claude", "rule:tone@codex"]
    assert _doctor(cli, project)["duplicate_reads"] == []
