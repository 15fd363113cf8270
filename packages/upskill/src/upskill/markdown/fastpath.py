"""A behaviour-identical fast path for mdformat's `text` renderer.

mdformat runs about ten escaping passes (several `re.sub` with template
strings) over every text node; most nodes are plain words that none of them
touch. When a node holds none of the characters those passes react to, the
default renderer would return it unchanged, so it is returned directly. The
equivalence with plain `mdformat.text` is a property test
(tests/test_format_markdown.py).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from mdformat.renderer import RenderContext, RenderTreeNode

# Every trigger of mdformat 1.0's text escaping: tabs, runs of spaces,
# backslashes, emphasis markers, brackets, `<`, backticks, `&` (character
# references) and blank-line sequences; a trailing `!` is checked separately.
_TRIGGERS = re.compile(r"[\t\\*_\[\]<`&]| {2}|\n\n")


def update_mdit(mdit: MarkdownIt) -> None:
    """No parser change: this plugin only swaps a renderer."""


def _text(node: RenderTreeNode, context: RenderContext) -> str:
    from mdformat.renderer import DEFAULT_RENDERERS

    content = node.content
    if context.do_wrap or content.endswith("!") or _TRIGGERS.search(content):
        return DEFAULT_RENDERERS["text"](node, context)
    return content


RENDERERS = {"text": _text}
