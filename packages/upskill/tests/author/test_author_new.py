"""`upskill new`: exact scaffolds, co-location, refusals and exit codes."""

from __future__ import annotations

import pytest

SKILL = (
    "---\n"
    "schema: 1\n"
    "name: code-review\n"
    "description: TODO Use when ... (the activation hint; aim for 200 characters or fewer)\n"
    "---\n"
    "\n"
    "## Code review\n"
    "\n"
    "TODO describe the procedure this skill teaches.\n"
    "\n"
    "1. TODO first step.\n"
    "2. TODO next step.\n"
)

AGENT = (
    "---\n"
    "schema: 1\n"
    "name: security-reviewer\n"
    "description: TODO Use when ... (say when to delegate to this agent)\n"
    "mode: subagent\n"
    "model: sonnet\n"
    "---\n"
    "\n"
    "## Security reviewer\n"
    "\n"
    "You are TODO (the role). When invoked:\n"
    "\n"
    "1. TODO what to examine first.\n"
    "2. TODO how to report findings.\n"
)

RULE = (
    "---\n"
    "schema: 1\n"
    "name: no-direct-db\n"
    "description: TODO say in one sentence which work this rule constrains\n"
    "---\n"
    "\n"
    "## No direct db\n"
    "\n"
    "- TODO state one always-on constraint per bullet, starting with Always or Never.\n"
    "- Keep rules short: every session loads them.\n"
)


@pytest.mark.parametrize(
    ("kind", "name", "entry", "expected"),
    [
        ("skill", "code-review", "SKILL.md", SKILL),
        ("agent", "security-reviewer", "AGENT.md", AGENT),
        ("rule", "no-direct-db", "RULE.md", RULE),
    ],
)
def test_new_writes_exact_scaffold(work, upskill, kind, name, entry, expected):
    result = upskill("new", kind, name)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"created {name}/{entry}\n"
    assert sorted(p.relative_to(work).as_posix() for p in work.rglob("*")) == [
        name,
        f"{name}/{entry}",
    ]
    assert (work / name / entry).read_text() == expected


def test_scaffolds_are_fmt_noops_and_lint_strict_clean(work, upskill, snap):
    skills = work / "skills"
    skills.mkdir()
    for kind, name in (("rule", "api-handler"), ("skill", "api-handler"), ("agent", "rev")):
        assert upskill("new", kind, name, cwd=skills).returncode == 0
    before = snap(work)
    check = upskill("fmt", "--check")
    assert check.returncode == 0, check.stdout
    assert check.stdout == "3 file(s) checked, 0 would be reformatted\n"
    assert upskill("fmt").returncode == 0
    assert snap(work) == before  # bytes and mtimes
    lint = upskill("lint", "--strict")
    assert lint.returncode == 0, lint.stdout
    assert lint.stdout == "3 file(s) checked, 0 findings\n"


def test_scaffolds_load_with_the_format_model(work, upskill):
    from upskill.format import load_item_dir

    upskill("new", "skill", "pair")
    upskill("new", "rule", "pair")
    upskill("new", "agent", "pair")
    items = load_item_dir(work / "pair")
    assert [(str(i.kind), i.name) for i in items] == [
        ("rule", "pair"),
        ("skill", "pair"),
        ("agent", "pair"),
    ]


def test_co_location_adds_sibling_entrypoints(work, upskill):
    assert upskill("new", "skill", "api-handler").returncode == 0
    result = upskill("new", "rule", "api-handler")
    assert result.returncode == 0
    assert result.stdout == "created api-handler/RULE.md\n"
    assert sorted(p.name for p in (work / "api-handler").iterdir()) == ["RULE.md", "SKILL.md"]


def test_co_location_refused_when_existing_skill_name_diverges(work, upskill, writer, snap):
    writer(
        work / "api-handler" / "SKILL.md",
        "---\nschema: 1\nname: something-else\ndescription: d\n---\n\n## X\n",
    )
    before = snap(work)
    result = upskill("new", "agent", "api-handler")
    assert result.returncode == 1
    assert result.stderr == (
        "upskill: error: api-handler/SKILL.md: existing skill is named 'something-else', not "
        "'api-handler'; co-location needs the skill's name to match the directory\n"
    )
    assert snap(work) == before


def test_divergent_rule_name_does_not_block_co_location(work, upskill, writer):
    writer(work / "x" / "RULE.md", "---\nschema: 1\nname: other\ndescription: d\n---\n\n## X\n")
    assert upskill("new", "skill", "x").returncode == 0
    assert upskill("new", "agent", "x").returncode == 0


def test_existing_entrypoint_is_never_overwritten(work, upskill, writer):
    target = writer(work / "keep" / "SKILL.md", "mine\n")
    result = upskill("new", "skill", "keep")
    assert result.returncode == 1
    assert result.stderr == "upskill: error: keep/SKILL.md: already exists; refusing to overwrite\n"
    assert target.read_text() == "mine\n"


def test_name_that_is_a_file_is_refused(work, upskill, writer):
    writer(work / "taken", "file\n")
    result = upskill("new", "rule", "taken")
    assert result.returncode == 1
    assert result.stderr == "upskill: error: taken: taken exists and is not a directory\n"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Code-Review", "name 'Code-Review' must be lowercase"),
        ("../escape", "name '../escape' must not contain '/', '\\' or '..'"),
        ("a/b", "name 'a/b' must not contain '/', '\\' or '..'"),
        ("-lead", "name '-lead' must not start or end with a hyphen"),
        (
            "under_score",
            "name 'under_score' may contain only lowercase letters, digits and hyphens",
        ),
        ("x" * 65, f"name '{'x' * 65}' is longer than 64 characters"),
        ("a--b", "skill name 'a--b' must not contain '--' (Agent Skills)"),
    ],
)
def test_invalid_names_exit_2_and_write_nothing(work, upskill, name, message):
    result = upskill("new", "skill", "--", name)
    assert result.returncode == 2
    assert result.stderr == f"upskill: error: invalid name: {message}\n"
    assert list(work.iterdir()) == []


def test_max_length_name_is_accepted(work, upskill):
    assert upskill("new", "rule", "x" * 64).returncode == 0


def test_unknown_kind_exits_2(work, upskill):
    result = upskill("new", "bundle", "x")
    assert result.returncode == 2
    assert result.stderr == (
        "upskill: error: unknown kind 'bundle' (expected one of: rule, skill, agent)\n"
    )
    assert list(work.iterdir()) == []


def test_missing_arguments_exit_2(upskill):
    assert upskill("new", "skill").returncode == 2


def test_new_refuses_consumer_project(work, upskill, writer):
    writer(work / ".upskill-lock.json", '{"schema": 1}\n')
    result = upskill("new", "skill", "x")
    assert result.returncode == 2
    assert "consumer project" in result.stderr
    assert not (work / "x").exists()
