"""One shared markdown-it parser configured exactly like mdformat's own.

`mdformat.text()` builds a fresh parser on every call; formatting a
registry of hundreds of files makes that the dominant cost, so the parser is
built once.
"""

from __future__ import annotations

import functools
from collections.abc import MutableMapping, Sequence
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
# `parser()` replays this set-up itself (it never looks the name up); the
# name is for `mdformat.text` callers and the build_mdit comparison test.
EXTENSIONS: tuple[str, ...] = ("gfm",)


@functools.cache
def parser() -> MarkdownIt:
    """The parser `mdformat._util.build_mdit(MDRenderer, ..., ("gfm",))` builds.

    `build_mdit` (and mdformat-gfm's own `update_mdit`) look plugins up in
    `mdformat.plugins.PARSER_EXTENSIONS`, whose first access scans every
    installed distribution's entry points and imports every mdformat plugin:
    a noticeable share of a cold `upskill install`. The two plugins needed
    are known, and mdformat 1.0.0 / mdformat-gfm 1.0.0 are pinned exactly
    (docs/upskill/format.md), so the same set-up is replayed here with direct
    imports. tests/test_markdown_engine_build.py checks it against
    `build_mdit` (options, plugin order, active rules, output bytes); an
    upgrade of either pin must re-check that test.
    """
    from markdown_it import MarkdownIt
    from mdformat.renderer import MDRenderer

    from upskill.markdown import fastpath

    # MDRenderer's `render` takes a token list, not markdown-it's
    # RendererProtocol signature; build_mdit types the class as Any too.
    renderer_cls: Any = MDRenderer
    md = MarkdownIt(renderer_cls=renderer_cls)
    # What build_mdit sets before loading extensions.
    md.options["mdformat"] = OPTIONS
    md.options["store_labels"] = True
    md.options["parser_extension"] = []
    _use_gfm(md)
    md.options["codeformatters"] = {}
    md.options["parser_extension"].append(fastpath)
    _loose_unless_shown_tight()
    return md


def _loose_unless_shown_tight() -> None:
    """Render a list tight only when a paragraph of it shows it is.

    mdformat 1.0 calls a list tight when none of its items' paragraphs is
    loose, so a list whose items hold no paragraph at all (headings, HTML
    blocks, fences, rules) is joined with single newlines: an HTML block then
    swallows the block after it and a heading line becomes a setext
    underline. Tightness only shows in paragraphs, so such a list is rendered
    loose, which parses back to the same structure
    (tests/author/test_author_fmt_structure.py). mdformat is pinned exactly;
    its renderer looks both helpers up in its `_context` module at call time.
    """
    from mdformat.renderer import _context

    def is_tight_list(node: Any) -> bool:
        paragraphs = [
            grand
            for child in node.children
            for grand in child.children
            if grand.type == "paragraph"
        ]
        return bool(paragraphs) and all(p.hidden for p in paragraphs)

    def is_tight_list_item(node: Any) -> bool:
        return is_tight_list(node.parent)

    setattr(_context, "is_tight_list", is_tight_list)  # noqa: B010 - not exported
    setattr(_context, "is_tight_list_item", is_tight_list_item)  # noqa: B010


def _use_gfm(md: MarkdownIt) -> None:
    """build_mdit's loop for ("gfm",), with gfm's `update_mdit` inlined.

    mdformat-gfm 1.0.0's `update_mdit` reads `PARSER_EXTENSIONS["tables"]`
    (the scan again), so its body is replayed: autolinks, then the tables
    plugin (registered after gfm, as build_mdit leaves them), strikethrough,
    task lists.
    """
    # mdformat-gfm ships no type information (no py.typed).
    from mdformat_gfm import _mdformat_plugin as gfm  # type: ignore[import-untyped]
    from mdformat_gfm import _tables_plugin as tables
    from mdformat_gfm._mdit_gfm_autolink_plugin import (  # type: ignore[import-untyped]
        gfm_autolink_plugin,
    )
    from mdit_py_plugins.tasklists import tasklists_plugin

    md.options["parser_extension"].append(gfm)
    md.use(gfm_autolink_plugin)
    md.options["parser_extension"].append(tables)
    tables.update_mdit(md)
    md.enable("strikethrough")
    md.use(tasklists_plugin)


def parse(text: str) -> tuple[list[Token], MutableMapping[str, Any]]:
    env: MutableMapping[str, Any] = {}
    tokens = parser().parse(text, env)
    return tokens, env


def render(tokens: Sequence[Token], env: MutableMapping[str, Any]) -> str:
    md = parser()
    out: str = md.renderer.render(tokens, md.options, env)
    return out
