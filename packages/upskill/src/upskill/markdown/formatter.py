"""`format_markdown`: the pinned formatter (mdformat 1.0 + mdformat-gfm).

Options are documented in docs/upskill/format.md: wrap keep, consecutive
ordered-list numbering, LF endings, GFM tables/strikethrough/task lists.
A leading YAML frontmatter block is opaque to the formatter (as dprint treats
it upstream): it is kept byte for byte and the seam to the body becomes exactly
one blank line.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from typing import Any

from upskill.format.frontmatter import closing_fence
from upskill.markdown import engine

FORMATTER_OPTIONS: dict[str, Any] = dict(engine.OPTIONS)
FORMATTER_EXTENSIONS: tuple[str, ...] = engine.EXTENSIONS

_CACHE_SIZE = 8192


@dataclass(frozen=True)
class Formatted:
    """A formatted body and the link destinations seen while formatting it.

    `destinations` counts inline links and images by destination; `references`
    holds the destinations of reference definitions the output keeps. Link
    rewriting uses them to edit the formatted text without a second pass.
    """

    text: str
    destinations: Counter[str]
    references: frozenset[str]


# Results computed ahead of time (markdown/parallel.py), by input text.
_PREFORMATTED: dict[str, Formatted] = {}


def format_document(body: str) -> Formatted:
    """Format Markdown without frontmatter (one parse, one render), cached."""
    ready = _PREFORMATTED.get(body)
    return ready if ready is not None else _format_cached(body)


def preformatted(results: dict[str, Formatted]) -> None:
    """Adopt results of `format_uncached` computed elsewhere (another process)."""
    _PREFORMATTED.update(results)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _format_cached(body: str) -> Formatted:
    return format_uncached(body)


def format_uncached(body: str) -> Formatted:
    text = body.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        return Formatted("", Counter(), frozenset())
    tokens, env = engine.parse(text)
    destinations: Counter[str] = Counter()
    labels: set[str] = set()
    for child, attr in engine.link_targets(tokens):
        label = child.meta.get("label")
        if label:
            labels.add(label)
        else:
            destinations[str(child.attrs.get(attr, ""))] += 1
    references = frozenset(
        str(ref["href"]) for label, ref in env.get("references", {}).items() if label in labels
    )
    return Formatted(engine.render(tokens, env), destinations, references)


def format_body(body: str) -> str:
    """Format Markdown without frontmatter. Empty or blank input gives ``""``."""
    return format_document(body).text


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
