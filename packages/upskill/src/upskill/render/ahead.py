"""Format the bodies of a large batch of renders ahead of time, on two cores.

`render_item` formats lazily, one item at a time; an install of hundreds of
items can hand the whole batch here first so that `markdown.parallel` formats
the distinct source texts in parallel. The renderings are the same bytes with
or without this call (tests/test_render_ahead.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from upskill.clients import render_target
from upskill.format.model import Item
from upskill.markdown.parallel import format_ahead
from upskill.render.body import source_body


def format_bodies_ahead(renders: Iterable[tuple[Item, str]]) -> None:
    """`renders` are the (item, client) pairs about to be rendered."""
    texts: list[str] = []
    for item, client in renders:
        try:
            texts.append(source_body(item, render_target(client)))
        except Exception:  # noqa: S112 - render_item raises it again, in order
            continue
    format_ahead(texts)
