"""The resource folder beside a single-file rule or agent, read back as its resources.

Rendering puts a flat item's resources in a sibling folder named like it
(`.claude/agents/x.md` and `.claude/agents/x/…`, `Layout.resource_dir`) and prefixes
the body's links to them with that name (`markdown.links.LinkRewrite`). Import
reverses both: the folder's files become the item's resources, and a link into the
folder loses the prefix, but only when rendering the result prefixes it back to the
exact body read (otherwise the body is kept as written, and the links still resolve
to the folder rendering writes).

Other files the body links to below the item's own directory (`./helpers/tool.sh`
beside `.claude/agents/x.md`) are imported as resources at that relative path, which
is what the link already says in the portable item; rendering then puts them in the
item's folder (`.claude/agents/x/helpers/tool.sh`) and prefixes the link. A link
leaving the directory (`../`), to a symlink, or to a file that is itself an item of
the tree is left alone.
"""

from __future__ import annotations

import os
import posixpath
import stat
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote

from upskill.format.model import Resource
from upskill.format.resources import (
    MAX_RESOURCE_BYTES,
    collect_resources,
    installed_mode,
    scan_files,
)
from upskill.importing.read import read_bytes
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


def _linked_path(href: str) -> str | None:
    """The POSIX path a relative link names below the item's directory, or None."""
    path = href.split("#", 1)[0].split("?", 1)[0]
    if not path or path.startswith(("/", "\\")) or ":" in path.split("/", 1)[0]:
        return None
    decoded = unquote(path.removeprefix("./"))
    if not decoded or ".." in decoded.split("/"):
        return None
    normal = posixpath.normpath(decoded)
    return None if normal in (".", "") else normal


def linked_resources(
    entrypoint: Path,
    body: str,
    have: tuple[Resource, ...],
    is_item: Callable[[str], bool],
    within: Path | None,
) -> tuple[Resource, ...]:
    """Regular files below `entrypoint`'s directory that `body` links to, not already
    among `have` (the folder's files, by path) and not items themselves (`is_item`)."""
    if "](" not in body and "]:" not in body:
        return ()
    taken = {r.path for r in have}
    found: dict[str, Resource] = {}
    for spot in spans.destinations(body):
        rel = _linked_path(spot.href)
        if rel is None or rel in taken or rel in found or is_item(rel):
            continue
        full = entrypoint.parent / rel
        try:
            info = os.lstat(full)
        except OSError:
            continue
        parts = rel.split("/")[:-1]
        folders = ("/".join(parts[: n + 1]) for n in range(len(parts)))
        if not stat.S_ISREG(info.st_mode) or any(
            (entrypoint.parent / f).is_symlink() for f in folders
        ):
            continue
        data = read_bytes(full, within, MAX_RESOURCE_BYTES)
        if data is not None:
            found[rel] = Resource(rel, data, installed_mode(info.st_mode))
    return tuple(found[k] for k in sorted(found))
