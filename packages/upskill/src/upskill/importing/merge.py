"""Turn what was found into portable items: names checked, findings merged, fields mapped.

The same (kind, name) found in several clients' trees is one item: its portable fields
come from the first finding (registry order), its body is the one body when all are
identical once formatted as rendering formats them, else override files or `@client`
blocks (`bodies`), and every finding's client keeps in its passthrough block what the
merged item would not reproduce for it. Names the portable format rejects, and names
taken by another item of the same kind, are changed deterministically; every merge,
rename and loss is a `Note`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from upskill.author.keyorder import canonical_key_order
from upskill.clients import BY_ID, PASSTHROUGH_BLOCKS
from upskill.clients.base import Carrier
from upskill.format.model import Kind
from upskill.importing import reverse
from upskill.importing.bodies import Variant, merge_bodies
from upskill.importing.model import FoundItem, Note, NoteKind, PortableItem
from upskill.importing.names import numbered, portable_name
from upskill.markdown import format_body
from upskill.render.item import TOML_KEYS


@dataclass
class _Group:
    kind: Kind
    name: str
    found: list[FoundItem] = field(default_factory=list)

    @property
    def owners(self) -> set[str]:
        return {o for f in self.found for o in f.owners}

    def admits(self, item: FoundItem) -> bool:
        """Another client's copy of the same item (an instruction file never merges)."""
        return (
            bool(item.owners)
            and all(f.owners for f in self.found)
            and not (self.owners & set(item.owners))
        )


def _mates(groups: Sequence[_Group], item: FoundItem, name: str) -> list[_Group]:
    """Groups `item` may be another client's copy of: a rule in a subfolder (`sub/x`) goes
    with the same subfolder path only, a top-level item with top-level items of its name."""
    if "/" in item.name:
        return [g for g in groups if g.kind is item.kind and g.found[0].name == item.name]
    return [
        g for g in groups if g.kind is item.kind and g.name == name and "/" not in g.found[0].name
    ]


def group(found: Sequence[FoundItem]) -> tuple[list[_Group], list[Note]]:
    """Findings grouped into items. Top-level items come first, so a name a rule in a
    subfolder derives (`sub/x` -> `sub-x`) never takes a name an item really has."""
    found = sorted(found, key=lambda f: "/" in f.name)
    groups: list[_Group] = []
    notes: list[Note] = []
    for item in found:
        nested = "/" in item.name
        name = portable_name(item.name, item.kind.value, skill=item.kind is Kind.SKILL)
        if name != item.name and not nested:
            notes.append(
                Note(
                    NoteKind.RENAME,
                    f"{item.path}: {item.kind.value} name {item.name!r} is not a portable name; "
                    f"imported as {name!r}",
                )
            )
        same = _mates(groups, item, name)
        taken = [g for g in groups if g.kind is item.kind and g.name == name]
        if same and same[0].admits(item):
            same[0].found.append(item)
            name = same[0].name
        elif taken:
            renamed = numbered(name, {g.name for g in groups if g.kind is item.kind})
            notes.append(
                Note(
                    NoteKind.RENAME,
                    f"{item.path}: {item.kind.value} {name!r} is already taken by "
                    f"{taken[0].found[0].path}; imported as {renamed!r}",
                )
            )
            name = renamed
        if nested:
            notes.append(
                Note(
                    NoteKind.RENAME,
                    f"{item.path}: {item.kind.value} in a subfolder; imported as {name!r}",
                )
            )
        if not (same and same[0].found[-1] is item):
            groups.append(_Group(item.kind, name, [item]))
    return groups, notes


def _frontmatter(
    kind: Kind,
    name: str,
    description: str,
    portable: reverse.Portable,
    passthrough: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    fm: dict[str, Any] = {"schema": 1, "name": name, "description": description}
    if portable.scope_paths:
        fm["scope"] = {"paths": list(portable.scope_paths)}
    if kind is Kind.AGENT:
        if portable.mode is not None:
            fm["mode"] = portable.mode
        if portable.model is not None:
            fm["model"] = portable.model
        if portable.tools is not None:
            fm["tools"] = list(portable.tools)
        if portable.preload:
            fm["preload-skills"] = list(portable.preload)
    for block in PASSTHROUGH_BLOCKS:
        if block in passthrough:
            fm[block] = passthrough[block]
    for key, value in portable.extras.items():
        fm[key] = value
    return {k: fm[k] for k in canonical_key_order(kind.value, list(fm))}


def _toml_losses(item: FoundItem, blocks: dict[str, dict[str, Any]]) -> list[Note]:
    notes = []
    for target, block in blocks.items():
        where = BY_ID[target].kinds.get(item.kind.value)
        if where is None or where.carrier is not Carrier.TOML:
            continue
        lost = [k for k, v in block.items() if k not in TOML_KEYS or type(v) is not str]
        if lost:
            notes.append(
                Note(
                    NoteKind.LOSSY,
                    f"{item.path}: key(s) {', '.join(lost)} kept in the {target}: block, but "
                    f"{target} role files are rendered with {', '.join(TOML_KEYS)} only",
                )
            )
    return notes


def build(g: _Group, *, home: bool) -> tuple[PortableItem, list[Note]]:
    first = g.found[0]
    notes: list[Note] = []
    description = reverse.description_of(first)
    portable = reverse.choose(first, g.name, description, home=home)
    variants: dict[str, list[str]] = {}
    for item in g.found:
        body = format_body(reverse.strip_skills_section(item.body)[0])
        variants.setdefault(body, []).extend(item.owners)
    merged = merge_bodies([Variant(b, tuple(o)) for b, o in variants.items()])
    forward_item = reverse.make_item(g.kind, g.name, description, merged.body, portable)
    passthrough: dict[str, dict[str, Any]] = {}
    for item in g.found:
        blocks = reverse.passthrough(item, forward_item, home=home)
        passthrough.update(blocks)
        notes.extend(_toml_losses(item, blocks))
        dropped = [t for t in item.owners if not BY_ID[t].passthrough]
        if dropped and any(k not in ("name", "description") for k in item.fields):
            notes.append(
                Note(NoteKind.LOSSY, f"{item.path}: {dropped[0]} takes no passthrough block")
            )
    if len(g.found) > 1:
        paths = ", ".join(f.path for f in g.found)
        if len(variants) == 1:
            how = "identical bodies"
        elif merged.blocks:
            how = "differing bodies as @client blocks"
        else:
            files = ", ".join(f"{g.kind.name}.{t}.md" for t in merged.overrides)
            how = f"differing bodies as override files {files}"
        notes.append(Note(NoteKind.MERGE, f"{g.kind.value} {g.name!r}: merged {paths} ({how})"))
    resources = first.resources
    if first.linked:
        notes.append(
            Note(
                NoteKind.LOSSY,
                f"{first.path}: linked file(s) {', '.join(first.linked)} imported as resources; "
                f"add installs them in the item's folder ({g.name}/…) and links there",
            )
        )
    for item in g.found[1:]:
        if item.resources and item.resources != resources:
            notes.append(
                Note(
                    NoteKind.LOSSY,
                    f"{item.path}: its files differ from {first.path}'s; those of "
                    f"{first.path} are imported",
                )
            )
    fm = _frontmatter(g.kind, g.name, description, portable, passthrough)
    return (
        PortableItem(
            kind=g.kind,
            name=g.name,
            frontmatter=fm,
            body=merged.body,
            overrides=merged.overrides,
            resources=resources,
            sources=tuple(f.path for f in g.found),
        ),
        notes,
    )


def merge(found: Sequence[FoundItem], *, home: bool) -> tuple[list[PortableItem], list[Note]]:
    groups, notes = group(found)
    items: list[PortableItem] = []
    for g in groups:
        item, more = build(g, home=home)
        items.append(item)
        notes.extend(more)
    return items, notes
