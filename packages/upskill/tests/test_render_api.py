"""render_item's public surface: clients, aliases, paths, errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from upskill.clients import SELECTABLE_CLIENTS, render_target, render_targets
from upskill.errors import RenderError, UsageError
from upskill.format import Kind, load_item_dir
from upskill.render import output_path, render_item

SELECTABLE = ", ".join(SELECTABLE_CLIENTS)


def make(tmp_path: Path, entry: str = "AGENT.md", audience: str = "") -> Path:
    item = tmp_path / "helper"
    (item / "refs").mkdir(parents=True)
    (item / entry).write_text(f"---\ndescription: d\n{audience}---\n\nSee [r](refs/a.md).\n")
    (item / "refs" / "a.md").write_text("a\n")
    return item


def test_output_paths_match_renderings(tmp_path: Path) -> None:
    (agent,) = load_item_dir(make(tmp_path))
    for client in ("claude", "copilot", "vscode", "opencode"):
        assert render_item(agent, client).files[0].path == output_path(agent, client)
    assert output_path(agent, "vscode", alias="x") == ".github/agents/x.agent.md"


def test_vscode_is_copilots_tree(tmp_path: Path) -> None:
    (agent,) = load_item_dir(make(tmp_path))
    assert render_item(agent, "vscode") == render_item(agent, "copilot")
    assert render_target("vscode") == "copilot"
    assert render_targets(["vscode", "claude", "copilot"]) == ("claude", "copilot")
    assert render_targets([]) == ("claude", "copilot", "opencode")


def test_unknown_client_is_a_usage_error(tmp_path: Path) -> None:
    (agent,) = load_item_dir(make(tmp_path))
    with pytest.raises(UsageError) as excinfo:
        render_item(agent, "acme")
    assert excinfo.value.exit_code == 2
    assert str(excinfo.value) == (f"unknown client 'acme' (expected one of: {SELECTABLE})")


def test_invalid_alias_is_rejected(tmp_path: Path) -> None:
    (agent,) = load_item_dir(make(tmp_path))
    with pytest.raises(RenderError) as excinfo:
        render_item(agent, "claude", alias="../x")
    assert str(excinfo.value) == (
        f"{tmp_path}/helper/AGENT.md: invalid alias: name '../x' must not contain '/', '\\' or '..'"
    )


def test_alias_relocates_resources_and_links(tmp_path: Path) -> None:
    (agent,) = load_item_dir(make(tmp_path))
    rendering = render_item(agent, "opencode", alias="aide")
    assert [f.path for f in rendering.files] == [
        ".opencode/agents/aide.md",
        ".opencode/agents/aide/refs/a.md",
    ]
    assert rendering.files[0].data.endswith(b"See [r](aide/refs/a.md).\n")
    assert b"name: aide\n" in rendering.files[0].data


def test_audience_skip_names_the_selected_client(tmp_path: Path) -> None:
    (rule,) = load_item_dir(make(tmp_path, "RULE.md", "audience: [opencode]\n"))
    assert render_item(rule, "vscode").files == ()
    assert render_item(rule, "vscode").warnings == (
        f"{tmp_path}/helper/RULE.md: rule 'helper' skipped for vscode: its audience is opencode",
    )


_blocks = st.sampled_from(
    [
        "## Heading",
        "Paragraph with *emphasis* and `code`.",
        "- item one\n- item two",
        "1. first\n2. second",
        "> quoted",
        "```sh\nmake\n```",
        "| a | b |\n|---|---|\n| 1 | 2 |",
        "<div>html</div>",
        "<!-- a comment -->",
        "    indented code",
        "Title\n=====",
        "- [ ] task",
        "[ref link][r]\n\n[r]: ./refs/a.md",
        "***",
    ]
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_blocks, min_size=0, max_size=5))
def test_appended_skills_section_follows_the_verbatim_body(blocks: list[str]) -> None:
    from upskill.format import Agent
    from upskill.render.body import render_body, skills_section

    body = "\n\n".join(blocks) + "\n"
    agent = Agent(
        kind=Kind.AGENT,
        name="a",
        declared_name=None,
        directory=Path("a"),
        entrypoint=Path("a/AGENT.md"),
        description="d",
        schema=1,
        body=body,
        body_line=4,
        preload_skills=("one", "two"),
    )
    for client in ("copilot", "opencode"):
        out = render_body(agent, client, None)
        section = skills_section(("one", "two"))
        assert out == (f"{body.strip(chr(10))}\n\n{section}" if body.strip() else section)
        assert "## Skills" in out and "- one\n- two\n" in out
