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
from upskill.markdown.formatter import Formatted, format_document

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
    formatted = format_document(body)
    changes = {
        old: new
        for old in formatted.destinations.keys() | formatted.references
        if (new := rewrite.destination(old)) is not None
    }
    if not changes:
        return formatted.text
    if changes.keys() & formatted.references:
        return _rewrite_tokens(body, rewrite)
    return _rewrite_text(formatted, changes) or _rewrite_tokens(body, rewrite)


def _rewrite_text(formatted: Formatted, changes: dict[str, str]) -> str | None:
    """Edit destinations in the canonical text directly.

    mdformat writes an inline destination as ``](dest)`` or ``](dest "title")``.
    When the number of such spots equals the number of links the parser saw,
    every spot is a link (none hides in a code span or block) and a one-pass
    substitution is exact; otherwise the caller re-renders from tokens.
    """
    spots: dict[str, str] = {}
    for old, new in changes.items():
        before, after = _as_written(old), _as_written(new)
        for end in (")", ' "'):
            spots[f"]({before}{end}"] = f"]({after}{end}"
        found = sum(formatted.text.count(f"]({before}{end}") for end in (")", ' "'))
        if found != formatted.destinations[old]:
            return None
    pattern = re.compile("|".join(re.escape(s) for s in sorted(spots, key=len, reverse=True)))
    return pattern.sub(lambda m: spots[m.group(0)], formatted.text)


def _as_written(destination: str) -> str:
    """How mdformat writes a destination (mirrors its maybe_add_link_brackets)."""
    if not destination or any(c in " ()" or ord(c) < 32 or c == "\x7f" for c in destination):
        return f"<{destination}>"
    return destination


def _rewrite_tokens(body: str, rewrite: LinkRewrite) -> str:
    tokens, env = engine.parse(body)
    for child, attr in engine.link_targets(tokens):
        old = child.attrs.get(attr)
        if isinstance(old, str) and (new := rewrite.destination(old)) is not None:
            child.attrs[attr] = new
    for ref in env.get("references", {}).values():
        new = rewrite.destination(ref["href"])
        if new is not None:
            ref["href"] = new
    return engine.render(tokens, env)
