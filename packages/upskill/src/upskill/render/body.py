"""Body resolution and formatting for one client (format spec §2.3, §3.4, §6, §7.4).

Order: override file for the client, else the canonical body with directives
processed for the client's family; then the `## Skills` section for clients
without a `skills:` field; then the pinned formatter (with link rewriting for
flat outputs, which formats as it rewrites). Every stage is cached on its
inputs, so clients that see the same text format it once.
"""

from __future__ import annotations

import functools
from pathlib import Path

from upskill.clients import get
from upskill.format.directives import has_directives, process_directives
from upskill.format.model import Agent, Item
from upskill.markdown import LinkRewrite, format_body, rewrite_links
from upskill.markdown.formatter import format_document
from upskill.render.tables import SKILLS_SECTION_LEAD


@functools.lru_cache(maxsize=8192)
def _directed(body: str, family: str, path: Path, first_line: int) -> str:
    return process_directives(body, family, path, first_line=first_line)


def source_body(item: Item, target: str) -> str:
    """The body text before formatting: override, or directives processed."""
    override = item.overrides.get(target)
    if override is not None:
        return override
    if not has_directives(item.body):
        return item.body
    return _directed(item.body, target, item.entrypoint, item.body_line)


def skills_section(skills: tuple[str, ...]) -> str:
    bullets = "".join(f"- {skill}\n" for skill in skills)
    return f"## Skills\n\n{SKILLS_SECTION_LEAD}\n\n{bullets}"


def render_body(item: Item, target: str, rewrite: LinkRewrite | None) -> str:
    text = source_body(item, target)
    body = rewrite_links(text, rewrite) if rewrite is not None else format_body(text)
    if isinstance(item, Agent) and item.preload_skills and not get(target).skills_field:
        section = skills_section(item.preload_skills)
        if format_document(text).references:
            # reference definitions close the formatted body; the section must
            # precede them, so format the whole text again.
            joined = text.rstrip("\n") + "\n\n" + section
            return rewrite_links(joined, rewrite) if rewrite is not None else format_body(joined)
        # The section is canonical by construction: appending it keeps the
        # result canonical without a second formatter pass.
        return body + "\n" + section if body else section
    return body
