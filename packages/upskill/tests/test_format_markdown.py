"""The pinned formatter and token-based link rewriting."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from upskill.markdown import LinkRewrite, format_body, format_markdown, rewrite_links

REWRITE = LinkRewrite("n", frozenset({"scripts/g.sh", "a b.md", "img.png", "refs/deep/x.md"}))


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


def test_rewrite_links_all_forms() -> None:
    body = (
        'See [g](./scripts/g.sh#x "t") and [h](scripts/g.sh) ![i](img.png) '
        "[u](https://x) [p](../x) [c](./a%20b.md) `[z](./scripts/g.sh)` "
        "[abs](/scripts/g.sh) [f](#frag) [m](./missing.md) [d](./refs/) [r][ref]\n\n"
        "[ref]: scripts/g.sh\n\n```md\n[q](./scripts/g.sh)\n```\n"
    )
    assert rewrite_links(body, REWRITE) == (
        'See [g](./n/scripts/g.sh#x "t") and [h](n/scripts/g.sh) ![i](n/img.png) '
        "[u](https://x) [p](../x) [c](./n/a%20b.md) `[z](./scripts/g.sh)` "
        "[abs](/scripts/g.sh) [f](#frag) [m](./missing.md) [d](./n/refs/) [r][ref]\n\n"
        "```md\n[q](./scripts/g.sh)\n```\n\n[ref]: n/scripts/g.sh\n"
    )


def test_rewrite_links_angle_bracket_destination_is_percent_encoded() -> None:
    assert rewrite_links("[c](<./a b.md>)\n", REWRITE) == "[c](./n/a%20b.md)\n"


_pieces = st.sampled_from(
    [
        "[g](./scripts/g.sh)",
        "[h](scripts/g.sh#x)",
        "![i](img.png)",
        "[u](https://example.com/a)",
        "[p](../up.md)",
        "`[z](./img.png)`",
        "[r][ref]",
        "plain text",
        "[c](./a%20b.md)",
        "[d](refs/deep/x.md)",
    ]
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(_pieces, min_size=1, max_size=4), min_size=1, max_size=4))
def test_rewrite_links_idempotent_and_formatter_stable(paragraphs: list[list[str]]) -> None:
    body = "\n\n".join(" ".join(p) for p in paragraphs) + "\n\n[ref]: ./scripts/g.sh\n"
    once = rewrite_links(body, REWRITE)
    assert rewrite_links(once, REWRITE) == once
    assert format_body(once) == once


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
def test_fast_text_path_matches_plain_mdformat(blocks: list[list[str]]) -> None:
    import mdformat

    from upskill.markdown import FORMATTER_EXTENSIONS, FORMATTER_OPTIONS

    text = "\n".join(" ".join(b) if i % 2 else "\n".join(b) for i, b in enumerate(blocks)) + "\n"
    expected = mdformat.text(text, options=FORMATTER_OPTIONS, extensions=FORMATTER_EXTENSIONS)
    assert format_body(text) == (expected if expected.strip() else "")


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(_pieces, min_size=1, max_size=4), min_size=1, max_size=4))
def test_text_level_rewrite_matches_token_rewrite(paragraphs: list[list[str]]) -> None:
    from upskill.markdown.links import _rewrite_tokens

    body = "\n\n".join(" ".join(p) for p in paragraphs) + "\n"
    assert rewrite_links(body, REWRITE) == _rewrite_tokens(body, REWRITE)
