"""Relative-link rewriting for flat outputs (format spec §2.4).

A flat output (a Claude/Copilot rule, any agent) is a single file whose
supporting resources land in a sibling ``<name>/`` directory, so a body link
``./scripts/x.sh`` must become ``./<name>/scripts/x.sh``. The rewrite edits
destinations where the author wrote them (inline links, images, reference
definitions), found through markdown-it's parse (`markdown.spans`), so code
spans, fences, autolinks and HTML are structurally out of reach and every
other byte of the body is kept.
"""

from __future__ import annotations

import functools
import posixpath
import re
from dataclasses import dataclass
from urllib.parse import unquote

from upskill.markdown import spans

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")


@dataclass(frozen=True)
class LinkRewrite:
    """Prefix destinations that point at copied resources.

    ``prefix`` is the sibling directory name (the installed name); ``targets``
    the copied resource paths, POSIX and relative to the item directory.
    """

    prefix: str
    targets: frozenset[str]

    @functools.cached_property
    def _linkable(self) -> frozenset[str]:
        # A link may name a copied file or a directory that holds copied files.
        parents: set[str] = set()
        for target in self.targets:
            parent = posixpath.dirname(target)
            while parent:
                parents.add(parent)
                parent = posixpath.dirname(parent)
        return self.targets | frozenset(parents)

    def destination(self, dest: str) -> str | None:
        """The rewritten destination, or None when it is left alone."""
        if not dest or dest.startswith(("#", "/", "\\")) or _SCHEME.match(dest):
            return None
        path, sep, fragment = dest.partition("#")
        path, qsep, query = path.partition("?")
        dot = path.startswith("./")
        bare = path[2:] if dot else path
        decoded = unquote(bare)
        if not decoded or ".." in decoded.split("/"):
            return None
        normal = posixpath.normpath(decoded).rstrip("/")
        if normal not in self._linkable:
            return None
        rewritten = ("./" if dot else "") + self.prefix + "/" + bare
        return rewritten + qsep + query + sep + fragment


def rewrite_links(body: str, rewrite: LinkRewrite) -> str:
    """`body` with the destinations of copied resources prefixed; every other byte kept.

    Idempotent: a prefixed destination no longer names a copied path (unless the
    item literally contains ``<prefix>/<path>``), so a second pass changes nothing.
    Raises RenderError when a destination to rewrite cannot be placed exactly.
    """
    if "](" not in body and "]:" not in body:
        return body  # no inline link, image or reference definition
    return _rewrite_cached(body, rewrite)


@functools.lru_cache(maxsize=4096)
def _rewrite_cached(body: str, rewrite: LinkRewrite) -> str:
    edits: list[tuple[int, int, str]] = []
    for spot in spans.destinations(body):
        new = rewrite.destination(spot.href)
        if new is not None:
            edits.append(
                (spot.start, spot.end, _retarget(body[spot.start : spot.end], new, rewrite))
            )
    out = body
    for start, end, written in sorted(edits, reverse=True):
        out = out[:start] + written + out[end:]
    return out


def _retarget(written: str, new: str, rewrite: LinkRewrite) -> str:
    """The destination as the author wrote it, with the prefix inserted.

    Only the path gains `<prefix>/` (after a leading `./`); escapes, angle
    brackets and percent-encoding stay as written. Should that not spell the
    new destination (a `./` written with an escape), the normalised
    destination is written in angle brackets instead.
    """
    from markdown_it.common.normalize_url import normalizeLink
    from markdown_it.common.utils import unescapeAll

    angled = written.startswith("<")
    inner = written[1:-1] if angled else written
    dot = "./" if inner.startswith("./") else ""
    edited = f"{dot}{rewrite.prefix}/{inner[len(dot) :]}"
    if normalizeLink(unescapeAll(edited)) == normalizeLink(new):
        return f"<{edited}>" if angled else edited
    return f"<{normalizeLink(new)}>"
