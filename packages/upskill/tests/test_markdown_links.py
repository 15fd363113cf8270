"""Link rewriting edits destinations where the author wrote them and nothing else."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from upskill.errors import RenderError
from upskill.markdown import LinkRewrite, rewrite_links
from upskill.markdown.spans import destinations

REWRITE = LinkRewrite("n", frozenset({"scripts/g.sh", "a b.md", "img.png", "refs/deep/x.md"}))


def test_rewrite_links_all_forms_in_place() -> None:
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
        "[ref]: n/scripts/g.sh\n\n```md\n[q](./scripts/g.sh)\n```\n"
    )


def test_angle_brackets_escapes_and_layout_are_kept() -> None:
    body = (
        "* item  with  [c](<./a b.md>)\n"
        "   continued [g](scripts/g.sh)\n\n"
        "> 1. quoted ![i](img.png 'x')\n"
        ">    [r]\n"
        ">\n"
        "> [r]:\n"
        ">   <./scripts/g.sh>\n\n"
        "| h | [g](scripts/g.sh) |\n|:-|-:|\n"
        "| `a\\|b` \\| [c](./a%20b.md) | [g](scripts/g.sh) |\n\n"
        "## Heading [g](./scripts/g.sh) ##\n"
    )
    assert rewrite_links(body, REWRITE) == (
        "* item  with  [c](<./n/a b.md>)\n"
        "   continued [g](n/scripts/g.sh)\n\n"
        "> 1. quoted ![i](n/img.png 'x')\n"
        ">    [r]\n"
        ">\n"
        "> [r]:\n"
        ">   <./n/scripts/g.sh>\n\n"
        "| h | [g](n/scripts/g.sh) |\n|:-|-:|\n"
        "| `a\\|b` \\| [c](./n/a%20b.md) | [g](n/scripts/g.sh) |\n\n"
        "## Heading [g](./n/scripts/g.sh) ##\n"
    )


def test_an_escaped_dot_slash_is_written_as_the_normalised_destination() -> None:
    assert rewrite_links("[g](.\\/scripts/g.sh)\n", REWRITE) == "[g](<./n/scripts/g.sh>)\n"


def test_bodies_without_links_are_returned_as_they_are() -> None:
    body = "# T\n\n1. one\n03. three\n\n<150 and =B5*(1+$B$6)\n\n---\n"
    assert rewrite_links(body, REWRITE) is body


def test_an_unplaceable_destination_is_an_error_not_a_guess(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from upskill.markdown import spans

    monkeypatch.setattr(spans, "_offsets", lambda *args: None)
    with pytest.raises(RenderError, match=r"cannot locate the link destination 'img.png'"):
        rewrite_links("![i](img.png)\n", REWRITE)


_links = st.sampled_from(
    [
        "[g](./scripts/g.sh)",
        "[h](scripts/g.sh#x)",
        "![i](img.png)",
        '![i](<img.png> "t")',
        "[u](https://example.com/a)",
        "[p](../up.md)",
        "`[z](./img.png)`",
        "[r][ref]",
        "[ref]",
        "plain *text*",
        "a \\| pipe",
        "[c](./a%20b.md)",
        "[c](<a b.md>)",
        "[d](refs/deep/x.md)",
        "[![i](img.png)](scripts/g.sh)",
        "<https://x/img.png>",
    ]
)
_lines = st.lists(_links, min_size=1, max_size=3).map(" ".join)


@st.composite
def _documents(draw: st.DrawFn) -> str:
    blocks: list[str] = []
    for _ in range(draw(st.integers(1, 5))):
        shape = draw(
            st.sampled_from(["para", "list", "quote", "table", "heading", "fence", "code"])
        )
        lines = draw(st.lists(_lines, min_size=1, max_size=3))
        if shape == "list":
            marker = draw(st.sampled_from(["- ", "* ", "1. ", "10) "]))
            pad = " " * len(marker)
            blocks.append(marker + ("\n" + pad).join(lines))
        elif shape == "quote":
            blocks.append("\n".join("> " + line for line in lines))
        elif shape == "table":
            cells = [line.replace("|", "\\|") for line in lines]
            head = "| " + " | ".join(f"h{i}" for i in range(len(cells))) + " |"
            rule = "|" + "---|" * len(cells)
            blocks.append(f"{head}\n{rule}\n| " + " | ".join(cells) + " |")
        elif shape == "heading":
            blocks.append("## " + lines[0])
        elif shape == "fence":
            blocks.append("```md\n" + "\n".join(lines) + "\n```")
        elif shape == "code":
            blocks.append("\n".join("    " + line for line in lines))
        else:
            blocks.append("\n".join(lines))
    definition = draw(st.sampled_from(["", "[ref]: ./scripts/g.sh", "[ref]: <img.png> 'x'"]))
    return "\n\n".join([*blocks, definition]) + "\n"


def _structure(text: str) -> list[tuple[object, ...]]:
    """The token stream with destinations blanked out."""
    md = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    out: list[tuple[object, ...]] = []
    for token in md.parse(text):
        out.append((token.type, token.tag, token.nesting, token.map))
        for child in token.children or ():
            attrs = {k: v for k, v in child.attrs.items() if k not in ("href", "src")}
            out.append((child.type, child.tag, child.nesting, child.content, str(attrs)))
    return out


def _hrefs(text: str) -> list[str]:
    md = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    found: list[str] = []
    for token in md.parse(text):
        for child in token.children or ():
            if child.type in ("link_open", "image"):
                found.append(str(child.attrs["href" if child.type == "link_open" else "src"]))
    return found


def _only_prefix_inserted(before: str, after: str) -> bool:
    """`after` is `before` with some `n/` inserted (no generated atom holds `n/`)."""
    i = j = 0
    while j < len(after):
        if after.startswith("n/", j) and not before.startswith("n/", i):
            j += 2
        elif i < len(before) and before[i] == after[j]:
            i, j = i + 1, j + 1
        else:
            return False
    return i == len(before)


@settings(max_examples=150, deadline=None)
@given(_documents())
def test_rewrite_inserts_the_prefix_and_changes_nothing_else(body: str) -> None:
    once = rewrite_links(body, REWRITE)
    assert _only_prefix_inserted(body, once)
    # every link that names a copied file now carries the prefix, no other changed
    assert _structure(once) == _structure(body)
    expected = [REWRITE.destination(h) or h for h in _hrefs(body)]
    assert _hrefs(once) == expected
    assert rewrite_links(once, REWRITE) == once


@settings(max_examples=100, deadline=None)
@given(_documents())
def test_every_destination_span_holds_what_the_parser_read(body: str) -> None:
    md = MarkdownIt("commonmark")
    for spot in destinations(body):
        written = body[spot.start : spot.end]
        inner = written[1:-1] if written.startswith("<") else written
        from markdown_it.common.utils import unescapeAll

        assert md.normalizeLink(unescapeAll(inner)) == spot.href
