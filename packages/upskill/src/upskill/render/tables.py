"""Render-side views of the client registry: layouts per (kind, client) and scope.

The facts live in `upskill.clients` (one module per client); these helpers are
what the renderer, install, remove and doctor ask, so they never disagree.
"""

from __future__ import annotations

from upskill.clients import BY_ID, CLIENTS, get
from upskill.clients.base import MODEL_ALIASES, PROJECT, Carrier, Layout, Placement, Site
from upskill.format.model import Kind

__all__ = [
    "GENERATED_FILE_MODE",
    "PROJECT",
    "SKILLS_SECTION_LEAD",
    "Layout",
    "Site",
    "carrier",
    "layout",
    "output_trees",
    "placement",
    "resolve_model",
]

SKILLS_SECTION_LEAD = (
    "This agent relies on the following skills, installed alongside it. Use them when relevant:"
)
GENERATED_FILE_MODE = 0o644


def placement(kind: Kind, target: str, site: Site = PROJECT) -> Placement | None:
    """Where `kind` lands for a client at a site, or None when it has no native place."""
    where = get(target).kinds.get(kind.value)
    return where if where is not None and where.serves(site.home) else None


def layout(kind: Kind, target: str, site: Site = PROJECT) -> Layout:
    where = placement(kind, target, site)
    if where is None:
        raise KeyError(f"{target} has no native place for {kind.plural}")
    return where.at(site.home)


def carrier(kind: Kind, target: str) -> Carrier:
    where = placement(kind, target)
    return Carrier.MARKDOWN if where is None else where.carrier


def output_trees() -> tuple[str, ...]:
    """Every directory any client's outputs live under, project and user layouts, and
    the compiled instructions files (`AGENTS.md`), which are a tree of one file, and
    the skill trees a client reads alone, in a project or at user level
    (`lifecycle/skillplace.py` writes a client's own rendering there when the shared copy
    holds another's: `~/.config/opencode/skills`), and the files importing
    a compiled file (`GEMINI.md`: `Placement.imported_by`), and the files a client reads
    instead of its compiled file (`AGENTS.override.md`: `Placement.override`) or besides
    it (`CRUSH.md`: `Placement.alternative`)."""
    trees = {
        layout.tree
        for client in CLIENTS
        for where in client.kinds.values()
        for layout in (where.project, where.user)
        if layout is not None
    }
    fronts = {w.imported_by for c in CLIENTS for w in c.kinds.values() if w.imported_by}
    fronts |= {w.override for c in CLIENTS for w in c.kinds.values() if w.override}
    fronts |= {w.alternative for c in CLIENTS for w in c.kinds.values() if w.alternative}
    alone = {t for c in CLIENTS for t in (*c.skill_trees, *c.user_skill_trees)}
    return tuple(sorted(trees | fronts | alone))


def resolve_model(model: str, target: str) -> str | None:
    """A `model:` value for a client: the §3.4 aliases (sonnet, opus, haiku) map through
    the client's table, and are dropped (None) for a client that has no such model; any
    other value passes through verbatim."""
    if model in MODEL_ALIASES:
        return BY_ID[target].models.get(model)
    return model
