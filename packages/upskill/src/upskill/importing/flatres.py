"""The resource folder beside a single-file rule or agent, read back as its resources.

Rendering puts a flat item's resources in a sibling folder named like it
(`.claude/agents/x.md` and `.claude/agents/x/…`, `Layout.resource_dir`) and prefixes
the body's links to them with that name (`markdown.links.LinkRewrite`). Import
reverses both: the folder's files become the item's resources, and a link into the
folder loses the prefix, but only when rendering the result prefixes it back to the
exact body read (otherwise the body is kept as written, and the links still resolve
to the folder rendering writes).
"""

from __future__ import annotations

from pathlib import Path

from upskill.format.model import Resource
from upskill.format.resources import collect_resources, scan_files
from upskill.markdown import spans
from upskill.markdown.links import LinkRewrite, rewrite_links


def sibling_resources(entrypoint: Path, stem: str) -> tuple[Resource, ...]:
    """The files of the folder `stem` beside `entrypoint` (none when it is absent or a
    symlink: a link is never followed out of the client's tree)."""
    folder = entrypoint.parent / stem
    if folder.is_symlink() or not folder.is_dir():
        return ()
    return collect_resources(scan_files(folder), ())


def _unprefixed(written: str, prefix: str) -> str | None:
    angled = written.startswith("<")
    inner = written[1:-1] if angled else written
    dot = "./" if inner.startswith("./") else ""
    rest = inner[len(dot) :]
    if not rest.startswith(f"{prefix}/"):
        return None
    edited = dot + rest[len(prefix) + 1 :]
    return f"<{edited}>" if angled else edited


def unprefix_links(body: str, prefix: str, resources: tuple[Resource, ...]) -> str:
    """`body` with links into the sibling folder `prefix/` made relative to the item
    directory, when rendering gives `body` back exactly; else `body` unchanged."""
    if not resources or ("](" not in body and "]:" not in body):
        return body
    edits: list[tuple[int, int, str]] = []
    for spot in spans.destinations(body):
        new = _unprefixed(body[spot.start : spot.end], prefix)
        if new is not None:
            edits.append((spot.start, spot.end, new))
    if not edits:
        return body
    out = body
    for start, end, written in sorted(edits, reverse=True):
        out = out[:start] + written + out[end:]
    rewrite = LinkRewrite(prefix, frozenset(r.path for r in resources))
    return out if rewrite_links(out, rewrite) == body else body
