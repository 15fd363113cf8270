"""The pinned formatter (`upskill fmt`, lint's `body-format`)."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from upskill.markdown import format_body, format_markdown


def test_format_keeps_frontmatter_and_single_blank_seam() -> None:
    doc = "---\nname: x\nq: '**'\n---\n\n\n## Hi\n* a\n* b\n"
    assert format_markdown(doc) == "---\nname: x\nq: '**'\n---\n\n## Hi\n\n- a\n- b\n"


def test_format_empty_body_gives_bare_frontmatter() -> None:
    assert format_markdown("---\nname: x\n---\n\n\n") == "---\nname: x\n---\n"
    assert format_body("  \n\n") == ""


def test_format_keeps_consecutive_numbers_and_line_breaks() -> None:
    body = "1. one\n2. two\n\nA long line\nkept as is.\n"
    assert format_body(body) == body


def test_format_normalises_crlf_and_tables() -> None:
    assert format_body("|a|b|\r\n|-|-|\r\n|1|2|\r\n") == (
        "| a   | b   |\n| --- | --- |\n| 1   | 2   |\n"
    )


_md_atoms = st.sampled_from(
    [
        "word",
        "two  spaces",
        "tab\there",
        "back\\slash",
        "*em*",
        "__strong__",
        "snake_case_name",
        "[brackets]",
        "[link](./a.md)",
        "![img](b.png)",
        "<tag>",
        "a < b",
        "`code`",
        "&amp;",
        "AT&T",
        "wow!",
        "# not heading",
        "1. item",
        "- bullet",
        "> quote",
        "| a | b |",
        "|---|---|",
        "```",
        "~~~py",
        "https://example.com",
        "end.",
        "",
    ]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(_md_atoms, min_size=1, max_size=5), min_size=1, max_size=6))
@example([["word"], ["word"], ["| a | b |", "|---|---|"]])  # a table interrupting a paragraph
def test_fast_text_path_matches_plain_mdformat(blocks: list[list[str]]) -> None:
    import mdformat

    from upskill.markdown import FORMATTER_EXTENSIONS, FORMATTER_OPTIONS

    text = "\n".join(" ".join(b) if i % 2 else "\n".join(b) for i, b in enumerate(blocks)) + "\n"
    expected = mdformat.text(text, options=FORMATTER_OPTIONS, extensions=FORMATTER_EXTENSIONS)
    assert format_body(text) == (expected if expected.strip() else "")
