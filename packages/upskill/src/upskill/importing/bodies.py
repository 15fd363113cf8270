"""One portable body for the differing bodies of one item found in several clients.

Either per-client override files (`SKILL.claude.md`) or `<!-- @client -->` blocks
around the parts that differ, whichever is smaller. Blocks are built from a diff of
Markdown blocks (paragraphs, lists, fences: the text between blank lines) and kept
only when processing them for every client family gives back exactly that client's
body, formatted as rendering formats it; otherwise override files are used.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from upskill.clients import BY_ID, FAMILIES
from upskill.errors import FormatError
from upskill.format.directives import process_directives, validate_directives
from upskill.markdown import format_body


@dataclass(frozen=True)
class Variant:
    """One distinct (formatted) body and the render targets whose files hold it."""

    body: str
    owners: tuple[str, ...]


@dataclass(frozen=True)
class Merged:
    body: str
    overrides: Mapping[str, str] = field(default_factory=dict)
    blocks: bool = False


def _blocks(text: str) -> list[str]:
    return [b for b in text.strip("\n").split("\n\n") if b.strip()]


def _families(owners: Sequence[str]) -> list[str]:
    return sorted({BY_ID[t].family for t in owners})


def with_blocks(base: Variant, other: Variant) -> str | None:
    """`base` and `other` as one body with `@client` blocks, or None when it would not
    reproduce both exactly."""
    families = _families(other.owners)
    if not families:
        return None
    only = ",".join(families)
    ours, theirs = _blocks(base.body), _blocks(other.body)
    out: list[str] = []
    matcher = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            out.extend(ours[i1:i2])
            continue
        if i2 > i1:
            out += [f"<!-- @client:!{only} -->", *ours[i1:i2], "<!-- @endclient -->"]
        if j2 > j1:
            out += [f"<!-- @client:{only} -->", *theirs[j1:j2], "<!-- @endclient -->"]
    candidate = format_body("\n\n".join(out) + "\n")
    where = Path("body")
    if validate_directives(candidate, where):
        return None
    for family in FAMILIES:
        expected = other.body if family in families else base.body
        try:
            got = format_body(process_directives(candidate, family, where))
        except FormatError:
            return None
        if got != expected:
            return None
    return candidate


def merge_bodies(variants: Sequence[Variant]) -> Merged:
    """The smallest exact representation of `variants` (the first is the default body)."""
    base = variants[0]
    if len(variants) == 1:
        return Merged(base.body)
    overrides = {t: v.body for v in variants[1:] for t in v.owners}
    size = len(base.body) + sum(len(b) for b in overrides.values())
    if len(variants) == 2:
        blocks = with_blocks(base, variants[1])
        if blocks is not None and len(blocks) < size:
            return Merged(blocks, blocks=True)
    return Merged(base.body, overrides)
