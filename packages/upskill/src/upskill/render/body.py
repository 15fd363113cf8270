"""The body one client receives (format spec §2.3, §3.4, §6, §7.4).

Order: override file for the client, else the canonical body with directives
processed for the client's family; then link rewriting for flat outputs; then
the `## Skills` section for clients without a `skills:` field. Nothing is
reformatted: the body reaches the client as its author wrote it, apart from
its leading blank lines (the seam after the frontmatter is the renderer's).
Formatting is authoring's job (`upskill fmt`, lint's `body-format`); see
docs/upskill/format.md, "Bodies are delivered verbatim".
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from upskill.clients import get
from upskill.errors import RenderError
from upskill.format.directives import has_directives, process_directives
from upskill.format.model import Agent, Item
from upskill.markdown import LinkRewrite, rewrite_links
from upskill.render.tables import SKILLS_SECTION_LEAD

_LEADING_BLANK_LINES = re.compile(r"\A(?:[ \t]*\n)+")
_TRAILING_BLANK_LINES = re.compile(r"(?:\n[ \t]*)+\Z")


@functools.lru_cache(maxsize=8192)
def _directed(body: str, family: str, path: Path, first_line: int) -> str:
    return process_directives(body, family, path, first_line=first_line)


def source_body(item: Item, target: str) -> str:
    """The client's body text: override, or directives processed."""
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
    """The body as delivered; "" when it holds nothing but blank lines."""
    text = source_body(item, target)
    if not text.strip():
        text = ""
    text = _LEADING_BLANK_LINES.sub("", text)
    if rewrite is not None:
        try:
            text = rewrite_links(text, rewrite)
        except RenderError as error:
            raise RenderError(error.message, path=item.entrypoint) from None
    if isinstance(item, Agent) and item.preload_skills and not get(target).skills_field:
        section = skills_section(item.preload_skills)
        body = _TRAILING_BLANK_LINES.sub("", text)
        return f"{body}\n\n{section}" if body else section
    return text
