"""One shared markdown-it parser configured exactly like mdformat's own.

`mdformat.text()` builds a fresh parser on every call; rendering thousands of
items makes that the dominant cost, so the parser is built once. Link
rewriting needs the same parser because it edits the token stream before
mdformat's renderer turns it back into Markdown.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, MutableMapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

# `--wrap keep`: never re-flow prose (authors own their line breaks, as with
# dprint's textWrap "maintain" upstream). `number: True`: keep consecutive
# ordered-list numbers (1. 2. 3.) as upstream's goldens have them, instead of
# mdformat's default of "1." everywhere. LF line endings always.
OPTIONS: dict[str, Any] = {"wrap": "keep", "number": True, "end_of_line": "lf"}
# GitHub-flavoured Markdown: tables, strikethrough, task lists, autolinks.
EXTENSIONS: tuple[str, ...] = ("gfm",)


@functools.cache
def parser() -> MarkdownIt:
    from mdformat._util import build_mdit  # pinned mdformat 1.0.x: see docs/upskill/format.md
    from mdformat.renderer import MDRenderer

    from upskill.markdown import fastpath

    md = build_mdit(MDRenderer, mdformat_opts=OPTIONS, extensions=EXTENSIONS)
    md.options["parser_extension"].append(fastpath)
    return md


def parse(text: str) -> tuple[list[Token], MutableMapping[str, Any]]:
    env: MutableMapping[str, Any] = {}
    tokens = parser().parse(text, env)
    return tokens, env


def render(tokens: Sequence[Token], env: MutableMapping[str, Any]) -> str:
    md = parser()
    out: str = md.renderer.render(tokens, md.options, env)
    return out


def link_targets(tokens: Sequence[Token]) -> Iterator[tuple[Token, str]]:
    """(token, attribute) of every inline link and image; autolinks excluded."""
    for token in tokens:
        for child in token.children or ():
            if child.type == "link_open" and child.info != "auto":
                yield child, "href"
            elif child.type == "image":
                yield child, "src"
