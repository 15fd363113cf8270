"""Every SSOT field, and what each client receives for it (format spec §3, §4, §7)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from upskill.format import Agent, load_item_dir
from upskill.render import render_item, targets_client

CLIENTS = ("claude", "copilot", "opencode")
ENTRY = {"rule": "RULE.md", "skill": "SKILL.md", "agent": "AGENT.md"}


def render(
    tmp_path: Path, kind: str, yaml: str, body: str = "## Body\n", **extra: str
) -> dict[str, Any]:
    """client -> (frontmatter dict, body text, file paths, warnings)."""
    item_dir = tmp_path / "thing"
    item_dir.mkdir(exist_ok=True)
    (item_dir / ENTRY[kind]).write_text(f"---\n{yaml}---\n\n{body}")
    for rel, text in extra.items():
        path = item_dir / rel.replace("__", "/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (item,) = load_item_dir(item_dir)
    result: dict[str, Any] = {}
    for client in CLIENTS:
        rendering = render_item(item, client)
        if not rendering.files:
            result[client] = None
            continue
        text = rendering.files[0].data.decode()
        _, fm, rest = text.split("---\n", 2)
        result[client] = (
            YAML(typ="safe", pure=True).load(fm),
            rest.removeprefix("\n"),
            [f.path for f in rendering.files],
            list(rendering.warnings),
        )
    return result


def fm(result: dict[str, Any]) -> dict[str, Any]:
    return {client: value[0] for client, value in result.items()}


BASE = "description: d\n"


def test_schema_license_metadata_requires_ignore_are_stripped(tmp_path: Path) -> None:
    yaml = (
        "schema: 1\nname: r\ndescription: d\nlicense: MIT\nmetadata: {version: 1.0.0, x: [1]}\n"
        "requires: {skills: [s], agents: [{name: a, source: o/r}]}\nignore: ['*.tmp']\n"
    )
    out = render(tmp_path, "rule", yaml)
    assert fm(out) == {
        "claude": {"name": "r", "description": "d"},
        "copilot": {"name": "r", "description": "d", "applyTo": "**"},
        "opencode": {"name": "r", "description": "d"},
    }
    (item,) = load_item_dir(tmp_path / "thing")
    assert item.metadata == {"version": "1.0.0", "x": [1]}
    assert [(r.name, r.source) for r in item.requires.skills] == [("s", None)]
    assert [(r.name, r.source) for r in item.requires.agents] == [("a", "o/r")]
    assert item.warnings == ()


def test_metadata_version_not_semver_warns(tmp_path: Path) -> None:
    render(tmp_path, "rule", "description: d\nmetadata: {version: '1.0'}\n")
    (item,) = load_item_dir(tmp_path / "thing")
    assert item.warnings == (
        "metadata.version '1.0' is not a semantic version (MAJOR.MINOR.PATCH)",
    )


def test_name_rule_may_diverge_from_directory(tmp_path: Path) -> None:
    out = render(tmp_path, "rule", "name: other-name\n" + BASE)
    assert [v[2][0] for v in out.values()] == [
        ".claude/rules/other-name.md",
        ".github/instructions/other-name.instructions.md",
        ".agents/rules/other-name/RULE.md",
    ]
    assert {c: v[0]["name"] for c, v in out.items()} == dict.fromkeys(CLIENTS, "other-name")


def test_name_defaults_to_directory(tmp_path: Path) -> None:
    out = render(tmp_path, "agent", BASE)
    assert {c: v[0]["name"] for c, v in out.items()} == dict.fromkeys(CLIENTS, "thing")
    assert [v[2][0] for v in out.values()] == [
        ".claude/agents/thing.md",
        ".github/agents/thing.agent.md",
        ".opencode/agents/thing.md",
    ]


def test_skill_paths(tmp_path: Path) -> None:
    out = render(tmp_path, "skill", BASE)
    assert [v[2][0] for v in out.values()] == [
        ".claude/skills/thing/SKILL.md",
        ".github/skills/thing/SKILL.md",
        ".agents/skills/thing/SKILL.md",
    ]


def test_yaml_12_strings_stay_strings(tmp_path: Path) -> None:
    out = render(tmp_path, "rule", "name: 'no'\ndescription: yes\n")
    assert {c: (v[0]["name"], v[0]["description"]) for c, v in out.items()} == dict.fromkeys(
        CLIENTS, ("no", "yes")
    )


def test_audience_filters_clients(tmp_path: Path) -> None:
    out = render(tmp_path, "skill", "description: d\naudience: [copilot, codex]\n")
    assert out["claude"] is None and out["opencode"] is None
    assert out["copilot"] is not None
    (item,) = load_item_dir(tmp_path / "thing")
    assert [targets_client(item, c) for c in ("claude", "copilot", "vscode", "opencode")] == [
        False,
        True,
        True,
        False,
    ]


def test_passthrough_only_for_matching_client(tmp_path: Path) -> None:
    yaml = BASE + "claude: {a: 1}\ncopilot: {b: [x]}\nopencode: {c: {d: e}, description: o}\n"
    out = render(tmp_path, "skill", yaml)
    assert fm(out) == {
        "claude": {"name": "thing", "description": "d", "a": 1},
        "copilot": {"name": "thing", "description": "d", "b": ["x"]},
        "opencode": {"name": "thing", "description": "o", "c": {"d": "e"}},
    }
    # a clashing key keeps its position
    assert out["opencode"][0] and list(out["opencode"][0]) == ["name", "description", "c"]


def test_scope_paths(tmp_path: Path) -> None:
    out = render(tmp_path, "rule", BASE + "scope: {paths: ['src/**', '*.md']}\n")
    assert fm(out) == {
        "claude": {"name": "thing", "description": "d", "paths": ["src/**", "*.md"]},
        "copilot": {"name": "thing", "description": "d", "applyTo": "src/**, *.md"},
        "opencode": {"name": "thing", "description": "d"},
    }


def test_rule_unknown_keys_dropped(tmp_path: Path) -> None:
    out = render(tmp_path, "rule", BASE + "globs: x\n")
    assert all("globs" not in v[0] for v in out.values())


def test_skill_fields_reach_the_clients_that_define_them_in_authored_order(
    tmp_path: Path,
) -> None:
    yaml = (
        BASE + "zeta: 1\nallowed-tools: Read\ncontext: fork\nmetadata:\n  b: '1'\n  a: x\n"
        "license: MIT\ncompatibility: needs git\nversion: 1.0.0\n"
    )
    out = render(tmp_path, "skill", yaml)
    spec = ["allowed-tools", "metadata", "license", "compatibility"]
    assert list(out["claude"][0]) == ["name", "description", "allowed-tools", "context", *spec[1:]]
    assert list(out["copilot"][0]) == ["name", "description", "allowed-tools", "context", *spec[1:]]
    assert list(out["opencode"][0]) == ["name", "description", *spec]
    assert list(out["opencode"][0]["metadata"]) == ["b", "a"]
    (item,) = load_item_dir(tmp_path / "thing")
    assert item.warnings == (
        "field 'zeta' is not an Agent Skills field and no client defines it for skills; "
        "it is not installed (put it under `metadata:`)",
        "field 'version' is not an Agent Skills field and no client defines it for skills; "
        "it is not installed (put it under `metadata:`)",
    )


def test_skill_fields_are_written_as_authored(tmp_path: Path) -> None:
    """Quotes, comments and YAML 1.2 numbers (`1.10`, `0x10`) of the Agent Skills fields
    reach the client as written, not as a re-emitted parse."""
    yaml = (
        BASE + 'license: "MIT"\nmetadata:   # who and which\n  version: 1.10\n  build: 0x10\n'
        '  author: "Acme"\n'
    )
    item_dir = tmp_path / "thing"
    render(tmp_path, "skill", yaml)
    (item,) = load_item_dir(item_dir)
    text = render_item(item, "codex").files[0].data.decode()
    assert text == (
        '---\nname: thing\ndescription: d\nlicense: "MIT"\nmetadata:   # who and which\n'
        '  version: 1.10\n  build: 0x10\n  author: "Acme"\n---\n\n## Body\n'
    )


def test_skill_field_whose_text_needs_the_rest_of_the_document_is_emitted(
    tmp_path: Path,
) -> None:
    """An alias into another entry cannot be copied alone: the parsed value is written."""
    yaml = BASE + "zeta: &who Acme\nmetadata:\n  author: *who\n"
    render(tmp_path, "skill", yaml)
    (item,) = load_item_dir(tmp_path / "thing")
    text = render_item(item, "codex").files[0].data.decode()
    assert text.startswith("---\nname: thing\ndescription: d\nmetadata:\n  author: Acme\n---\n")


def test_skill_tools_and_preload_are_validated_but_not_emitted(tmp_path: Path) -> None:
    out = render(tmp_path, "skill", BASE + "tools: [read]\npreload-skills: [x]\n")
    assert fm(out) == {c: {"name": "thing", "description": "d"} for c in CLIENTS}
    assert all("## Skills" not in v[1] for v in out.values())


def test_agent_mode(tmp_path: Path) -> None:
    assert [v[0].get("mode") for v in render(tmp_path, "agent", BASE).values()] == [
        None,
        None,
        "subagent",
    ]
    assert [v[0].get("mode") for v in render(tmp_path, "agent", BASE + "mode: all\n").values()] == [
        None,
        None,
        "all",
    ]


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("sonnet", ["sonnet", "claude-sonnet-4.6", "anthropic/claude-sonnet-4-6"]),
        ("opus", ["opus", "claude-opus-4.6", "anthropic/claude-opus-4-6"]),
        ("haiku", ["haiku", "claude-haiku-4.5", "anthropic/claude-haiku-4-5"]),
        ("openai/gpt-5", ["openai/gpt-5"] * 3),
    ],
)
def test_agent_model_aliases(tmp_path: Path, model: str, expected: list[str]) -> None:
    out = render(tmp_path, "agent", BASE + f"model: {model}\n")
    assert [v[0]["model"] for v in out.values()] == expected


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("sonnet", "claude-sonnet-4.6"),
        ("opus", "claude-opus-4.6"),
        ("haiku", "claude-haiku-4.5"),
        ("claude-opus-4.8", "claude-opus-4.8"),
    ],
)
def test_kiro_agent_model_aliases(tmp_path: Path, model: str, expected: str) -> None:
    # Kiro CLI's ids (kiro.dev/docs/cli/models), in its JSON agent file, no warning.
    item_dir = tmp_path / "thing"
    item_dir.mkdir()
    (item_dir / "AGENT.md").write_text(f"---\n{BASE}model: {model}\n---\n\n## Body\n")
    (item,) = load_item_dir(item_dir)
    rendering = render_item(item, "kiro")
    assert json.loads(rendering.files[0].data)["model"] == expected
    assert list(rendering.warnings) == []


def test_agent_tools_mapping_and_warnings(tmp_path: Path) -> None:
    out = render(tmp_path, "agent", BASE + "tools: [read, write, edit, bash, web-search]\n")
    assert out["claude"][0]["tools"] == ["Read", "Write", "Edit", "Bash", "WebSearch"]
    # GitHub's documented aliases; write and edit both become `edit`, once.
    assert out["copilot"][0]["tools"] == ["read", "edit", "execute", "web"]
    # opencode allows every tool by default: what `tools:` does not grant is denied
    # (issue 14, 6), in the table's order
    assert out["opencode"][0]["permission"] == {
        "read": "allow",
        "edit": "allow",
        "bash": "allow",
        "grep": "deny",
        "glob": "deny",
        "webfetch": "deny",
        "websearch": "allow",
    }
    assert list(out["opencode"][0]["permission"]) == [
        "read", "edit", "bash", "grep", "glob", "webfetch", "websearch"
    ]  # fmt: skip
    assert "tools" not in out["opencode"][0]
    assert all(v[3] == [] for v in out.values())


def test_agent_tool_without_client_equivalent_is_dropped_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dataclasses

    from upskill.clients import registry

    copilot = registry.BY_ID["copilot"]
    narrower = {k: v for k, v in copilot.tools.items() if k not in ("grep", "glob")}
    monkeypatch.setitem(registry.BY_ID, "copilot", dataclasses.replace(copilot, tools=narrower))
    out = render(tmp_path, "agent", BASE + "tools: [read, grep, glob, bash]\n")
    assert out["copilot"][0]["tools"] == ["read", "execute"]
    entry = tmp_path / "thing" / "AGENT.md"
    assert out["copilot"][3] == [
        f"{entry}: agent 'thing': tools 'grep', 'glob' have no copilot equivalent and are dropped"
    ]
    assert out["claude"][3] == [] and out["opencode"][3] == []


def test_agent_tools_absent_emits_every_supported_capability(tmp_path: Path) -> None:
    out = render(tmp_path, "agent", BASE)
    assert out["claude"][0]["tools"] == [
        "Read", "Write", "Edit", "Bash", "Grep", "Glob", "WebFetch", "WebSearch",
    ]  # fmt: skip
    assert out["copilot"][0]["tools"] == ["read", "edit", "execute", "search", "web"]
    assert list(out["opencode"][0]["permission"]) == [
        "read", "edit", "bash", "grep", "glob", "webfetch", "websearch",
    ]  # fmt: skip
    assert all(v[3] == [] for v in out.values())


def test_agent_preload_skills(tmp_path: Path) -> None:
    out = render(tmp_path, "agent", BASE + "preload-skills: [a-skill, b-skill]\n")
    assert out["claude"][0]["skills"] == ["a-skill", "b-skill"]
    assert "## Skills" not in out["claude"][1]
    section = (
        "## Skills\n\nThis agent relies on the following skills, installed alongside it. "
        "Use them when relevant:\n\n- a-skill\n- b-skill\n"
    )
    for client in ("copilot", "opencode"):
        assert "skills" not in out[client][0]
        assert out[client][1] == "## Body\n\n" + section


def test_agent_unknown_keys_dropped(tmp_path: Path) -> None:
    out = render(tmp_path, "agent", BASE + "color: red\n")
    assert all("color" not in v[0] for v in out.values())
    (item,) = load_item_dir(tmp_path / "thing")
    assert isinstance(item, Agent) and item.extras == {"color": "red"}


def test_override_files_replace_body_per_client(tmp_path: Path) -> None:
    body = "## Canonical\n\n<!-- @client:claude,opencode -->\nshared\n<!-- @endclient -->\n"
    out = render(tmp_path, "rule", BASE, body, **{"RULE.copilot.md": "## Copilot only\n"})
    assert out["claude"][1] == "## Canonical\n\nshared\n"
    assert out["copilot"][1] == "## Copilot only\n"
    assert out["opencode"][1] == "## Canonical\n\nshared\n"
    assert all(len(v[2]) == 1 for v in out.values())  # override files are not resources


def test_empty_body_gives_bare_frontmatter(tmp_path: Path) -> None:
    out = render(tmp_path, "rule", BASE, "\n\n")
    assert all(v[1] == "" for v in out.values())


def test_ignore_excludes_resources(tmp_path: Path) -> None:
    out = render(
        tmp_path,
        "skill",
        BASE + "ignore: ['*.log', 'build/', '!keep.log']\n",
        **{"a.log": "x", "keep.log": "k", "build__out.txt": "x", "src__build.txt": "s"},
    )
    assert out["claude"][2] == [
        ".claude/skills/thing/SKILL.md",
        ".claude/skills/thing/keep.log",
        ".claude/skills/thing/src/build.txt",
    ]
