"""`format_markdown`: the pinned formatter (mdformat 1.0 + mdformat-gfm).

Options are documented in docs/upskill/format.md: wrap keep, consecutive
ordered-list numbering, LF endings, GFM tables/strikethrough/task lists.
A leading YAML frontmatter block is opaque to the formatter (as dprint treats
it upstream): it is kept byte for byte and the seam to the body becomes exactly
one blank line.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from upskill.format.frontmatter import closing_fence
from upskill.markdown import engine
from upskill.markdown.structure import same_structure

FORMATTER_OPTIONS: dict[str, Any] = dict(engine.OPTIONS)
FORMATTER_EXTENSIONS: tuple[str, ...] = engine.EXTENSIONS

_CACHE_SIZE = 8192
_EDGE_BLANKS = re.compile(r"\A(?:[ \t]*\n)+|(?:\n[ \t]*)+\Z")


def format_body(body: str) -> str:
    """Format Markdown without frontmatter. Empty or blank input gives ``""``.

    A body the formatter would give another CommonMark structure is returned
    as written (LF endings): restyling must never change what a body says
    (`markdown.structure`; docs/upskill/format.md).
    """
    return _format(body)[0]


def kept_as_written(body: str) -> bool:
    """Whether `format_body` returned `body` unformatted because formatting would have
    changed its structure, which `upskill fmt` tells the author instead of hiding."""
    return _format(body)[1]


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _format(body: str) -> tuple[str, bool]:
    text = body.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        return "", False
    tokens, env = engine.parse(text)
    formatted = engine.render(tokens, env)
    if same_structure(text, formatted):
        return formatted, False
    # Kept as written, but framed as the formatter frames a body: no blank lines before
    # or after it and one final newline, so the seam to the frontmatter stays one blank
    # line and `fmt` stays idempotent.
    return _EDGE_BLANKS.sub("", text) + "\n", True


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
