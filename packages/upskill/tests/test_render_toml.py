"""TOML-carried renderings (Codex subagent role files) read back exactly."""

from __future__ import annotations

import tomllib
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from upskill.format import load_item_dir
from upskill.render import render_item
from upskill.render.toml_emit import basic_string, emit_strings, multiline_string


@given(st.text())
def test_basic_string_round_trips(value: str) -> None:
    assert tomllib.loads(f"k = {basic_string(value)}\n") == {"k": value}


@given(st.text())
def test_multiline_string_round_trips(value: str) -> None:
    assert tomllib.loads(f"k = {multiline_string(value)}\n") == {"k": value}


@given(st.dictionaries(st.sampled_from(["name", "description", "model", "x_y"]), st.text()))
def test_emitted_document_round_trips_in_order(fields: dict[str, str]) -> None:
    text = emit_strings(fields, long=frozenset({"x_y"}))
    assert list(tomllib.loads(text).items()) == list(fields.items())


def test_codex_agent_is_a_role_file(tmp_path: Path) -> None:
    item_dir = tmp_path / "rev"
    item_dir.mkdir()
    (item_dir / "AGENT.md").write_text(
        '---\nname: rev\ndescription: Reviews "diffs"\nmodel: gpt-6.2-sol\n'
        "tools: [read, grep]\n---\n\nCheck `a\\b` and\n\n- one\n- two\n"
    )
    (agent,) = load_item_dir(item_dir)
    rendering = render_item(agent, "codex")
    (out,) = rendering.files
    assert out.path == ".codex/agents/rev.toml"
    assert out.data == (
        b'name = "rev"\n'
        b'description = "Reviews \\"diffs\\""\n'
        b'model = "gpt-6.2-sol"\n'
        b'developer_instructions = """\n'
        b"Check `a\\\\b` and\n\n- one\n- two\n"
        b'"""\n'
    )
    assert tomllib.loads(out.data.decode())["developer_instructions"] == (
        "Check `a\\b` and\n\n- one\n- two\n"
    )
    entry = item_dir / "AGENT.md"
    assert rendering.warnings == (
        f"{entry}: agent 'rev': tools 'read', 'grep' have no codex equivalent and are dropped",
    )


def test_model_alias_without_client_equivalent_is_dropped(tmp_path: Path) -> None:
    item_dir = tmp_path / "rev"
    item_dir.mkdir()
    (item_dir / "AGENT.md").write_text("---\nname: rev\ndescription: d\nmodel: sonnet\n---\n\nx\n")
    (agent,) = load_item_dir(item_dir)
    gemini = render_item(agent, "gemini")
    assert gemini.files[0].path == ".gemini/agents/rev.md"
    assert gemini.files[0].data.startswith(b"---\nname: rev\ndescription: d\ntools:\n")
    assert b"model:" not in gemini.files[0].data
    assert gemini.warnings == (
        f"{item_dir / 'AGENT.md'}: agent 'rev': model 'sonnet' has no gemini equivalent "
        "and is dropped",
    )
    assert render_item(agent, "claude").files[0].data.count(b"model: sonnet\n") == 1
