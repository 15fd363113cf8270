"""Relative-link rewriting for flat outputs (format spec §2.4).

A flat output (a Claude/Copilot rule, any agent) is a single file whose
supporting resources land in a sibling ``<name>/`` directory, so a body link
``./scripts/x.sh`` must become ``./<name>/scripts/x.sh``. The rewrite edits
destinations in markdown-it's token stream (inline links, images, reference
definitions) and lets mdformat render the result, so code spans, fences,
autolinks and HTML are structurally out of reach, and the output is already
formatter-canonical.
"""

from __future__ import annotations

import functools
import posixpath
import re
from dataclasses import dataclass
from urllib.parse import unquote

from upskill.markdown import engine

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
    """Return ``body`` formatted, with destinations of copied resources prefixed.

    Idempotent: a prefixed destination no longer names a copied path (unless the
    item literally contains ``<prefix>/<path>``), so a second pass changes nothing.
    """
    return _rewrite_cached(body.replace("\r\n", "\n"), rewrite)


@functools.lru_cache(maxsize=4096)
def _rewrite_cached(body: str, rewrite: LinkRewrite) -> str:
    if not body.strip():
        return ""
    tokens, env = engine.parse(body)
    for token in tokens:
        for child in token.children or ():
            if child.type == "link_open" and child.info != "auto":
                attr = "href"
            elif child.type == "image":
                attr = "src"
            else:
                continue
            old = child.attrs.get(attr)
            if isinstance(old, str):
                new = rewrite.destination(old)
                if new is not None:
                    child.attrs[attr] = new
    for ref in env.get("references", {}).values():
        new = rewrite.destination(ref["href"])
        if new is not None:
            ref["href"] = new
    return engine.render(tokens, env)
