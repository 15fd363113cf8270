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

from upskill.markdown import engine

FORMATTER_OPTIONS: dict[str, Any] = dict(engine.OPTIONS)
FORMATTER_EXTENSIONS: tuple[str, ...] = engine.EXTENSIONS

_CACHE_SIZE = 8192


@functools.lru_cache(maxsize=_CACHE_SIZE)
def format_body(body: str) -> str:
    """Format Markdown without frontmatter. Empty or blank input gives ``""``.

    Cached: rendering the same body for several clients formats it once.
    """
    text = body.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        return ""
    tokens, env = engine.parse(text)
    return engine.render(tokens, env)


def _split_frontmatter(text: str) -> tuple[str, str] | None:
    if not text.startswith("---\n"):
        return None
    end = text.find("\n---\n", 3)
    if end == -1:
        if text.endswith("\n---"):
            return text + "\n", ""
        return None
    cut = end + len("\n---\n")
    return text[:cut], text[cut:]


def format_markdown(text: str) -> str:
    """Format a Markdown document; a leading ``---`` frontmatter block is kept verbatim."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    split = _split_frontmatter(text)
    if split is None:
        return format_body(text)
    frontmatter, body = split
    formatted = format_body(body)
    if not formatted:
        return frontmatter
    return frontmatter + "\n" + formatted
