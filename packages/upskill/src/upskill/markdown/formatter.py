"""`format_markdown`: the pinned formatter (mdformat 1.0 + mdformat-gfm).

Options are documented in docs/upskill/format.md: wrap keep, consecutive
ordered-list numbering, LF endings, GFM tables/strikethrough/task lists.
A leading YAML frontmatter block is opaque to the formatter (as dprint treats
it upstream): it is kept byte for byte and the seam to the body becomes exactly
one blank line.
"""

from __future__ import annotations

import functools
from typing import Any

from upskill.format.frontmatter import closing_fence
from upskill.markdown import engine
from upskill.markdown.structure import same_structure

FORMATTER_OPTIONS: dict[str, Any] = dict(engine.OPTIONS)
FORMATTER_EXTENSIONS: tuple[str, ...] = engine.EXTENSIONS

_CACHE_SIZE = 8192


@functools.lru_cache(maxsize=_CACHE_SIZE)
def format_body(body: str) -> str:
    """Format Markdown without frontmatter. Empty or blank input gives ``""``.

    A body the formatter would give another CommonMark structure is returned
    as written (LF endings): restyling must never change what a body says
    (`markdown.structure`; docs/upskill/format.md).
    """
    text = body.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        return ""
    tokens, env = engine.parse(text)
    formatted = engine.render(tokens, env)
    return formatted if same_structure(text, formatted) else text


def format_markdown(text: str) -> str:
    """Format a Markdown document; a leading ``---`` frontmatter block is kept verbatim."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    end = closing_fence(lines)
    if end is None:
        return format_body("\n".join(lines))
    frontmatter = "\n".join(lines[: end + 1]) + "\n"
    body = "\n".join(lines[end + 1 :])
    formatted = format_body(body)
    if not formatted:
        return frontmatter
    return frontmatter + "\n" + formatted
