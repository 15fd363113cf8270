"""The CommonMark structure of a body, for checking that formatting kept it.

`upskill fmt` may restyle a document but never change what it says: the
formatter's output is accepted only when its structure equals the input's
(`formatter.format_body`). mdformat 1.0 has known ways to break that (a list
whose items hold no paragraph is rendered tight, so an HTML block swallows
the block after it); this check catches those and any not yet known.

Structure is markdown-it's token stream, read twice (plain CommonMark, and
CommonMark plus GFM tables and strikethrough), with what is formatting left
out: source positions, marker spellings (`*` or `-`, `---` or `___`, fence
lengths, `3.` or `03.`), whether a code block is indented or fenced, the
indent of an HTML block's lines (up to three spaces), and in text the width
of runs of spaces and whether a soft line break or a space separates two
words (a setext heading becomes an ATX heading on one line).
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

_SPACES = re.compile(r"[ \t]+")


@functools.cache
def _parser(flavour: str) -> MarkdownIt:
    """The two readings a body must keep: plain CommonMark, and CommonMark with GFM's
    tables and strikethrough. Agents read bodies with either kind of parser, and a
    restyling can be neutral in one and not the other (a setext heading whose text
    looks like a table row becomes a table under GFM)."""
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark")
    return parser.enable(["table", "strikethrough"]) if flavour == "gfm" else parser


def _html(content: str) -> str:
    lines = content.split("\n")
    return "\n".join(line[min(len(line) - len(line.lstrip(" ")), 3) :] for line in lines)


def _inline(children: list[Token]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for child in children:
        if child.type in ("text", "softbreak"):
            content = " " if child.type == "softbreak" else child.content
            if out and out[-1][0] == "text":
                out[-1] = ("text", _SPACES.sub(" ", out[-1][1] + content))
            else:
                out.append(("text", _SPACES.sub(" ", content)))
        elif child.type in ("code_inline", "html_inline"):
            out.append((child.type, child.content))
        elif child.type == "image":
            out.append((child.type, sorted(child.attrs.items()), _inline(child.children or [])))
        else:
            out.append((child.type, child.nesting, sorted(child.attrs.items())))
    return out


def structure(text: str, flavour: str = "gfm") -> list[tuple[Any, ...]]:
    """The token stream of `text` with formatting left out (see the module docstring)."""
    out: list[tuple[Any, ...]] = []
    for token in _parser(flavour).parse(text):
        kind = "code" if token.type in ("fence", "code_block") else token.type
        entry: tuple[Any, ...] = (kind, token.tag, token.nesting, token.hidden)
        if kind == "code":
            entry += (token.content, token.info.strip())
        elif token.type == "html_block":
            entry += (_html(token.content),)
        elif token.type == "ordered_list_open":
            entry += (token.attrs.get("start", 1),)
        elif token.type in ("th_open", "td_open"):
            entry += (token.attrs.get("style"),)
        elif token.type == "inline":
            entry += (_inline(token.children or []),)
        out.append(entry)
    return out


def blocks(text: str, flavour: str) -> list[tuple[Any, ...]]:
    """`structure` without inline content: which blocks there are and how they nest, with
    adjacent paragraphs counted as one. A plain reader sees a table that interrupts a
    paragraph as more of that paragraph, so the blank line the formatter puts before
    the table splits it in two for that reader; nothing else can, as GFM's reading of
    the whole structure is compared in full."""
    out: list[tuple[Any, ...]] = []
    merging = False
    for entry in structure(text, flavour):
        kind = entry[0]
        if kind == "paragraph_open" and out and out[-1][0] == "paragraph_close":
            out.pop()  # continue the previous paragraph
            merging = True
            continue
        if merging and kind == "inline":
            merging = False
            continue
        out.append(entry[:4])
    return out


def same_structure(before: str, after: str) -> bool:
    """The whole structure under GFM, and the blocks under plain CommonMark too: a table
    realigned is the same table, though in a plain reading it is a paragraph whose text
    changed; a heading turned into a table is another document in either reading."""
    if structure(before, "gfm") != structure(after, "gfm"):
        return False
    return blocks(before, "commonmark") == blocks(after, "commonmark")
