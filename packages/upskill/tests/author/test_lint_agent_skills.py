"""`lint` reports every Agent Skills violation the reference validator reports.

`skills-ref` (PyPI, `agentskills validate`) is a dev dependency: each case below
is a skill the real validator rejects, and lint must report an error for it, on
the line and under the rule id given. Its checks, read from skills_ref/validator.py
and parser.py (0.1.1): StrictYAML frontmatter (no flow collections, anchors,
aliases, tags, duplicate keys), the frontmatter ending at the first `---`, only
the six specification fields, `name` required, non-empty, at most 64 characters,
lowercase, letters/digits/hyphens, no leading, trailing or double hyphen, equal
to the directory name; `description` required, non-empty, at most 1024
characters; `compatibility` a string of at most 500 characters.

Where lint is stricter than the validator (upskill reads YAML 1.2, so `name: 5`
is a number, not a string; names are ASCII because they become paths in sixteen
clients' trees; `compatibility:` with no value is null), the property test below
keeps to frontmatter both read the same way.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from skills_ref.validator import validate

from upskill.author.lint import lint_targets
from upskill.author.targets import discover_targets

# directory -> (frontmatter, rule id lint reports as an error, the line it names)
VIOLATIONS: dict[str, tuple[str, str, int | None]] = {
    "unknown-field": ("name: unknown-field\ndescription: d\nversion: 1.0.0\n", "agent-skills", 4),
    "unknown-field-author": (
        "name: unknown-field-author\ndescription: d\nauthor: me\n",
        "agent-skills",
        4,
    ),
    "name-upper": ("name: Name-Upper\ndescription: d\n", "name", 2),
    "name-hyphen-start": ("name: -name-hyphen-start\ndescription: d\n", "name", 2),
    "name-hyphen-end": ("name: name-hyphen-end-\ndescription: d\n", "name", 2),
    "name--double": ("name: name--double\ndescription: d\n", "name", 2),
    "name-chars": ("name: name_chars\ndescription: d\n", "name", 2),
    "name-long": (f"name: {'n' * 65}\ndescription: d\n", "name", 2),
    "name-empty": ('name: ""\ndescription: d\n', "name", 2),
    "name-dir": ("name: other-dir\ndescription: d\n", "name-matches-dir", 2),
    "no-description": ("name: no-description\n", "description", None),
    "empty-description": ('name: empty-description\ndescription: "  "\n', "description", 3),
    "long-description": (
        f"name: long-description\ndescription: {'d' * 1025}\n",
        "description",
        3,
    ),
    "long-compatibility": (
        f"name: long-compatibility\ndescription: d\ncompatibility: {'c' * 501}\n",
        "compatibility",
        4,
    ),
    "mapping-compatibility": (
        "name: mapping-compatibility\ndescription: d\ncompatibility:\n  os: linux\n",
        "compatibility",
        4,
    ),
    "flow-metadata": (
        "name: flow-metadata\ndescription: d\nmetadata: {author: me}\n",
        "agent-skills",
        4,
    ),
    "flow-tools": (
        "name: flow-tools\ndescription: d\nallowed-tools: [Read, Grep]\n",
        "agent-skills",
        4,
    ),
    "anchor": (
        "name: anchor\ndescription: &d text\nmetadata:\n  summary: *d\n",
        "agent-skills",
        3,
    ),
    "tag": ("name: tag\ndescription: !!str text\n", "agent-skills", 3),
    "duplicate-key": ("name: duplicate-key\ndescription: d\ndescription: e\n", "frontmatter", None),
}


def _tree(root: Path, cases: dict[str, str]) -> None:
    for directory, frontmatter in cases.items():
        path = root / directory / "SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(f"---\n{frontmatter}---\n\n## Body\n\nText.\n", encoding="utf-8")


def test_each_validator_rejection_is_a_lint_error_through_the_cli(work, upskill):
    _tree(work, {d: fm for d, (fm, _, _) in VIOLATIONS.items()})
    for directory in VIOLATIONS:
        assert validate(work / directory), f"the reference validator accepts {directory}"
    result = upskill("lint", "--json")
    assert result.returncode == 1, result.stderr
    errors = [f for f in json.loads(result.stdout)["findings"] if f["severity"] == "error"]
    for directory, (_, rule, line) in VIOLATIONS.items():
        mine = [f for f in errors if f["path"] == f"{directory}/SKILL.md"]
        assert mine, f"lint reports no error for {directory}"
        assert any(f["rule"] == rule and (line is None or f["line"] == line) for f in mine), (
            directory,
            mine,
        )


def test_agent_skills_findings_exact_text(work, upskill):
    _tree(
        work,
        {
            "fields": "name: fields\ndescription: d\nversion: 1.0.0\n"
            "disable-model-invocation: true\nmetadata:\n  n: 1\nallowed-tools:\n  - Read\n",
            "noname": "description: d\n",
        },
    )
    result = upskill("lint")
    assert [line for line in result.stdout.splitlines() if "[agent-skills]" in line] == [
        "error: fields/SKILL.md:4 [agent-skills] field 'version' is not an Agent Skills "
        "field and no client defines it for skills; it is not installed (put it under "
        "`metadata:`)",
        "warning: fields/SKILL.md:5 [agent-skills] field 'disable-model-invocation' is not "
        "an Agent Skills field; only Claude Code, GitHub Copilot CLI, VS Code, Cursor, Qwen "
        "Code, Zed, Crush define it, so only their copies carry it",
        "warning: fields/SKILL.md:6 [agent-skills] metadata value(s) of 'n' are not "
        "strings; Agent Skills metadata maps strings to strings (quote them)",
        "warning: fields/SKILL.md:8 [agent-skills] 'allowed-tools' is not a string; Agent "
        "Skills defines it as a space-separated string (Claude Code also reads a list)",
        "warning: noname/SKILL.md [agent-skills] no 'name:' field; Agent Skills requires one "
        "(upskill writes the directory name into every copy)",
    ]
    assert result.returncode == 1


def test_upskill_keys_are_not_agent_skills_findings(work, upskill):
    """upskill's own keys never reach a client, flow style and all."""
    _tree(
        work,
        {
            "own": "schema: 1\nname: own\ndescription: d\naudience: [claude]\n"
            "tools: [read]\nrequires:\n  skills: [other]\nclaude:\n  model: opus\n",
            "other": "schema: 1\nname: other\ndescription: d\n",
        },
    )
    result = upskill("lint")
    assert result.stdout == "2 file(s) checked, 0 findings\n", result.stdout
    assert result.returncode == 0


# Frontmatter both parsers read alike: plain ASCII scalars that YAML 1.2 reads as
# strings (not `true`, `0x1f` or `1e5`), block style only.
def _yaml_string(text: str) -> bool:
    try:
        return type(YAML(typ="safe", pure=True).load(f"k: {text}")["k"]) is str
    except YAMLError:  # `-` alone opens a sequence
        return False


_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8).filter(_yaml_string)
_NAME = st.one_of(
    st.from_regex(r"[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}", fullmatch=True),
    st.from_regex(r"[a-zA-Z0-9_-]{1,70}", fullmatch=True),
).filter(_yaml_string)
_SHORT = _WORD.map(lambda w: f"use {w}")
_TEXT = st.one_of(
    _SHORT,
    _SHORT,
    _SHORT,
    st.integers(min_value=1000, max_value=1100).map(lambda n: "w" * n),
    st.integers(min_value=480, max_value=520).map(lambda n: "c" * n),
)
_SPEC = st.fixed_dictionaries(
    {"name": _NAME, "description": _TEXT},
    optional={
        "license": _WORD.map(lambda w: f"{w}-license"),
        "compatibility": _TEXT,
        "metadata": st.dictionaries(_WORD, _WORD.map(lambda w: f"v-{w}"), min_size=1, max_size=3),
        "allowed-tools": _WORD.map(lambda w: f"Read {w.capitalize()}"),
    },
)


@st.composite
def _skill(draw: st.DrawFn) -> tuple[dict[str, object], str]:
    """Frontmatter and its directory name, valid often enough to test both verdicts."""
    fields = draw(_SPEC)
    for required in ("name", "description"):
        if draw(st.integers(0, 6)) == 0:
            del fields[required]
    if draw(st.integers(0, 4)) == 0:
        fields[draw(st.sampled_from(["version", "homepage", "author"]))] = "v-1"
    named = fields.get("name")
    if isinstance(named, str) and draw(st.booleans()):
        return fields, named
    return fields, draw(_NAME)


def _render(fields: dict[str, object]) -> str:
    lines = []
    for key, value in fields.items():
        if isinstance(value, dict):
            lines.append(f"{key}:")
            lines.extend(f"  {k}: {v}" for k, v in value.items())
        else:
            lines.append(f"{key}: {value}")
    return "".join(line + "\n" for line in lines)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_skill())
def test_lint_error_verdict_agrees_with_the_reference_validator(
    tmp_path_factory: pytest.TempPathFactory, case: tuple[dict[str, object], str]
) -> None:
    fields, directory = case
    root = tmp_path_factory.mktemp("differential")
    _tree(root, {directory: _render(fields)})
    rejected = bool(validate(root / directory))
    report = lint_targets(discover_targets([root]))
    assert report.files_checked == 1
    lint_errors = [f for f in report.findings if f.severity.value == "error"]
    if "name" not in fields:
        # upskill names the skill after its directory (a warning), where the validator
        # wants `name:`: lint errs exactly when the file would with that name added.
        _tree(root / "named", {directory: _render({"name": directory, **fields})})
        assert rejected
        rejected = bool(validate(root / "named" / directory))
    event(f"rejected: {rejected}")
    assert bool(lint_errors) == rejected, (lint_errors, validate(root / directory))
