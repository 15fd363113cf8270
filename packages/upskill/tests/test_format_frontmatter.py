"""One definition of a frontmatter block, shared by the parser and the Markdown formatter."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from upskill.errors import FormatError
from upskill.format.frontmatter import closing_fence, split_frontmatter
from upskill.markdown import format_markdown

_LINES = st.lists(st.sampled_from(["---", "--- ", "----", "a: 1", "", "text", "# H"]), max_size=8)


@settings(max_examples=60, deadline=None)
@given(lines=_LINES)
def test_parser_and_formatter_agree_on_where_frontmatter_ends(lines: list[str]) -> None:
    text = "\n".join(lines)
    end = closing_fence(lines)
    try:
        doc = split_frontmatter(text, Path("x.md"))
    except FormatError:
        assert end is None
        return
    assert end is not None
    assert doc.yaml == "\n".join(lines[1:end]) + "\n"
    assert doc.body == "\n".join(lines[end + 1 :])
    # The formatter keeps exactly that block, byte for byte, and formats only the rest.
    assert format_markdown(text).startswith("\n".join(lines[: end + 1]) + "\n")


@pytest.mark.parametrize(
    ("lines", "end"),
    [
        (["---", "a: 1", "---", "body"], 2),
        (["---  ", "a: 1", "--- ", ""], 2),  # trailing whitespace on a fence is allowed
        (["---", "a: 1"], None),  # unterminated
        (["text", "---", "---"], None),  # must open on the first line
        (["----", "---"], None),
        ([], None),
    ],
)
def test_closing_fence(lines: list[str], end: int | None) -> None:
    assert closing_fence(lines) == end


def test_config_yaml_goes_through_the_item_loader(tmp_path: Path) -> None:
    """YAML 1.2 and the same errors as items: duplicate keys are refused, with a line."""
    from upskill.state.config import ConfigError, parse_config

    path = tmp_path / "config.yaml"
    assert parse_config("clients: [claude]\nfuture: no\n", path).clients == ("claude",)
    with pytest.raises(ConfigError) as info:
        parse_config("clients: [claude]\nclients: [copilot]\n", path)
    assert str(info.value).startswith(f"{path}:2: invalid YAML: found duplicate key")
