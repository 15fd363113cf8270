"""Map a client's frontmatter back to portable fields: the render tables run in reverse.

Inverting a table can be ambiguous (Copilot's `search` is both `grep` and `glob`;
`applyTo: '**'` is both "everywhere" and the glob `**`), so the inverse only proposes
candidates. Each candidate is rendered forward for the client with the very code
`upskill add` uses (`render.frontmatter.build_frontmatter`) and the one reproducing most
of the file's keys wins, the more portable one on a tie. Whatever the winner does not
reproduce (an unknown key, a value the client table cannot express, a model id that is
not one of the portable aliases) is kept as the client's passthrough block, which
rendering puts back in place, so the client file comes out as it went in.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from upskill.clients import BY_ID
from upskill.clients.base import MODEL_ALIASES
from upskill.format.items import COMMON_KEYS, KIND_KEYS, MAX_DESCRIPTION_CHARS
from upskill.format.model import AGENT_MODES, Agent, Item, Kind, Rule, Skill
from upskill.format.names import name_problem
from upskill.format.vocabulary import CAPABILITIES
from upskill.importing.model import FoundItem
from upskill.render.frontmatter import build_frontmatter
from upskill.render.tables import SKILLS_SECTION_LEAD, Site

# Keys that may hold a rule's globs in some client's frontmatter (a list, or one string
# of comma-separated globs); which one a client uses is settled by rendering forward.
PATH_KEYS: tuple[str, ...] = ("paths", "applyTo", "globs", "fileMatchPattern")
_SKILLS_SECTION = re.compile(
    r"(?:\A|\n\n)## Skills\n\n" + re.escape(SKILLS_SECTION_LEAD) + r"\n\n((?:- [a-z0-9-]+\n)+)\Z"
)
_RESERVED_SKILL_KEYS = frozenset(COMMON_KEYS) | frozenset(KIND_KEYS[Kind.SKILL])
_MISSING = object()


@dataclass(frozen=True)
class Portable:
    """The portable fields of one item besides name, description and body."""

    scope_paths: tuple[str, ...] = ()
    model: str | None = None
    tools: tuple[str, ...] | None = None
    mode: str | None = None
    preload: tuple[str, ...] = ()
    extras: Mapping[str, Any] = field(default_factory=dict)


def make_item(
    kind: Kind,
    name: str,
    description: str,
    body: str,
    portable: Portable,
    passthrough: Mapping[str, Mapping[str, Any]] | None = None,
    overrides: Mapping[str, str] | None = None,
) -> Item:
    """A format-model item (as `format.items` would load it) for the forward renderer."""
    common: dict[str, Any] = {
        "kind": kind,
        "name": name,
        "declared_name": name,
        "directory": Path(name),
        "entrypoint": Path(name) / kind.entrypoint,
        "description": description,
        "schema": 1,
        "body": body,
        "body_line": 1,
        "passthrough": dict(passthrough or {}),
        "overrides": dict(overrides or {}),
    }
    if kind is Kind.RULE:
        return Rule(**common, scope_paths=portable.scope_paths)
    if kind is Kind.SKILL:
        return Skill(**common, extras=dict(portable.extras), client_fields=dict(portable.extras))
    return Agent(
        **common,
        mode=portable.mode,
        model=portable.model,
        tools=portable.tools,
        preload_skills=portable.preload,
    )


def forward(item: Item, target: str, *, home: bool) -> dict[str, Any]:
    """The frontmatter `upskill add` writes for `item` and a client (project site alone)."""
    fields, _ = build_frontmatter(item, target, item.name, Site(home=home))
    return fields


def strip_skills_section(body: str) -> tuple[str, tuple[str, ...]]:
    """The body without the `## Skills` section rendering appends for clients that have no
    `skills:` field, and the skills it lists."""
    match = _SKILLS_SECTION.search(body)
    if match is None:
        return body, ()
    skills = tuple(line[2:] for line in match.group(1).splitlines())
    if any(name_problem(s, skill=True) for s in skills):
        return body, ()
    return body[: match.start()] + ("\n" if match.start() else ""), skills


def description_of(found: FoundItem) -> str:
    value = found.fields.get("description")
    if type(value) is str and value.strip() and len(value) <= MAX_DESCRIPTION_CHARS:
        return value
    if found.description_hint:
        return found.description_hint[:MAX_DESCRIPTION_CHARS]
    return f"{found.kind.value.capitalize()} {found.name} imported from {found.path}"


def _names(value: Any) -> list[str] | None:
    """A tool list as clients write it: a YAML list of strings, or `Read, Grep`."""
    if isinstance(value, list) and all(type(v) is str for v in value):
        return [v.strip() for v in value]
    if type(value) is str:
        return [v.strip() for v in value.split(",") if v.strip()]
    return None


def _capabilities(names: list[str], table: Mapping[str, str]) -> tuple[str, ...] | None:
    inverse: dict[str, list[str]] = {}
    for capability in CAPABILITIES:
        if capability in table:
            inverse.setdefault(table[capability], []).append(capability)
    if any(n not in inverse for n in names):
        return None
    return tuple(dict.fromkeys(c for n in names for c in inverse[n]))


def _tool_candidates(fields: Mapping[str, Any], target: str) -> list[tuple[str, ...] | None]:
    table = BY_ID[target].tools
    out: list[tuple[str, ...] | None] = [None]
    sources: list[list[str] | None] = [_names(fields.get("tools"))]
    permission = fields.get("permission")
    if isinstance(permission, dict):
        sources.append([k for k, v in permission.items() if v == "allow" and type(k) is str])
    for names in sources:
        if names is None:
            continue
        caps = _capabilities(names, table)
        if caps is not None and caps not in out:
            out.append(caps)
    return out


def _model_candidates(fields: Mapping[str, Any], target: str) -> list[str | None]:
    value = fields.get("model")
    if type(value) is not str:
        return [None]
    table = BY_ID[target].models
    aliases = [a for a in MODEL_ALIASES if table.get(a) == value]
    return [*aliases, None]  # a client-specific id stays in the passthrough block


def _path_candidates(fields: Mapping[str, Any]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = [()]
    for key in PATH_KEYS:
        names = _names(fields.get(key))
        if names and tuple(names) not in out:
            out.append(tuple(names))
    return out


def candidates(found: FoundItem, target: str) -> Iterable[Portable]:
    fields = found.fields
    if found.kind is Kind.RULE:
        return [Portable(scope_paths=p) for p in _path_candidates(fields)]
    if found.kind is Kind.SKILL:
        extras = {k: v for k, v in fields.items() if k not in _RESERVED_SKILL_KEYS and k != "name"}
        extras.pop("description", None)
        return [Portable(extras=extras)]
    mode = fields.get("mode")
    modes = [None, mode] if mode in AGENT_MODES else [None]
    skills = _names(fields.get("skills"))
    preloads: list[tuple[str, ...]] = [()]
    if skills and not any(name_problem(s, skill=True) for s in skills):
        preloads.append(tuple(skills))
    return [
        Portable(model=m, tools=t, mode=o, preload=p)
        for m, t, o, p in itertools.product(
            _model_candidates(fields, target), _tool_candidates(fields, target), modes, preloads
        )
    ]


def _same(value: Any, rendered: Any) -> bool:
    """Equal, or the same list written as one comma-separated string (`Read, Grep`)."""
    if value == rendered:
        return True
    return isinstance(rendered, list) and type(value) is str and _names(value) == rendered


def _score(wanted: Mapping[str, Any], rendered: Mapping[str, Any]) -> tuple[int, int]:
    matched = sum(1 for k, v in rendered.items() if _same(wanted.get(k, _MISSING), v))
    extra = sum(1 for k in rendered if k not in wanted)
    return matched, -extra


def choose(found: FoundItem, name: str, description: str, *, home: bool) -> Portable:
    """The portable fields that reproduce most of the file for its first owner."""
    if not found.owners:
        return Portable()
    target = found.owners[0]
    body, preload = strip_skills_section(found.body)
    best: tuple[tuple[int, int], Portable] | None = None
    for candidate in candidates(found, target):
        if preload and not candidate.preload:
            candidate = Portable(
                candidate.scope_paths,
                candidate.model,
                candidate.tools,
                candidate.mode,
                preload,
                candidate.extras,
            )
        item = make_item(found.kind, name, description, body, candidate)
        score = _score(found.fields, forward(item, target, home=home))
        if best is None or score > best[0]:
            best = (score, candidate)
    assert best is not None
    return best[1]


def passthrough(found: FoundItem, item: Item, *, home: bool) -> dict[str, dict[str, Any]]:
    """Per owner, the keys of the file that rendering `item` would not reproduce."""
    blocks: dict[str, dict[str, Any]] = {}
    for target in found.owners:
        if not BY_ID[target].passthrough:
            continue
        rendered = forward(item, target, home=home)
        block = {k: v for k, v in found.fields.items() if rendered.get(k, _MISSING) != v}
        if block:
            blocks[target] = block
    return blocks
