"""The agent clients upskill writes for, described once (`clients/registry.py`).

This package is the only place a client is described. What the rest of upskill
asks of a client (flags, audience names, output layouts, MCP and plugin
routes) is derived here from the registry table, never from if-chains on
client names elsewhere.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from upskill.clients.base import SKILL
from upskill.clients.base import Client as Client
from upskill.clients.registry import BY_ID as BY_ID
from upskill.clients.registry import CLIENTS as CLIENTS
from upskill.errors import UsageError

CLAUDE = "claude"
COPILOT = "copilot"
VSCODE = "vscode"
OPENCODE = "opencode"

# What a user may select (flags, config `clients:`), in canonical order.
SELECTABLE_CLIENTS: tuple[str, ...] = tuple(c.id for c in CLIENTS)
# What "nothing chose" selects, and what a recorded empty selection means.
BASELINE_CLIENTS: tuple[str, ...] = tuple(c.id for c in CLIENTS if c.baseline)
# The generation clients: one output tree each (VS Code reads Copilot's).
RENDER_TARGETS: tuple[str, ...] = tuple(c.id for c in CLIENTS if not c.tree)
# Family identifiers valid in `audience:` lists and `<!-- @client: -->` directives
# (format spec §3.1, §6.1).
FAMILIES: tuple[str, ...] = tuple(dict.fromkeys(c.family for c in CLIENTS))
# Suffixes allowed in `<KIND>.<client>.md` override files (format spec §2.3).
OVERRIDE_CLIENTS: tuple[str, ...] = RENDER_TARGETS
# Frontmatter blocks an item may carry for one client (format spec §3.7).
PASSTHROUGH_BLOCKS: tuple[str, ...] = tuple(c.id for c in CLIENTS if c.passthrough)
# Every top-level skill field some client defines: an authored field outside this set
# reaches no client (format/items.py warns, lint reports it).
DEFINED_SKILL_FIELDS: frozenset[str] = frozenset().union(*(c.skill_fields for c in CLIENTS))
MCP_CLIENTS: tuple[str, ...] = tuple(c.id for c in CLIENTS if c.mcp is not None)
PLUGIN_CLIENTS: tuple[str, ...] = tuple(c.id for c in CLIENTS if c.plugins is not None)


def parse_client(name: str) -> str:
    """Validate a selectable client name (usage error otherwise)."""
    if name not in BY_ID:
        known = ", ".join(SELECTABLE_CLIENTS)
        raise UsageError(f"unknown client {name!r} (expected one of: {known})")
    return name


def get(name: str) -> Client:
    """The registry entry of a client (usage error for an unknown name)."""
    return BY_ID[parse_client(name)]


def render_target(client: str) -> str:
    """The output tree a selectable (or render) client writes: vscode -> copilot."""
    return get(client).render_as


def family(client: str) -> str:
    """The audience/directive family of a client: VS Code is part of the Copilot family."""
    return get(client).family


def in_registry_order(clients: Iterable[str]) -> tuple[str, ...]:
    """Selectable clients (validated, duplicates dropped) in registry order: what a
    selection decides is made in this order, so it depends on the selection as a set and
    not on the order it came in (a lockfile's recorded list may be in any order)."""
    given = {parse_client(c) for c in clients}
    return tuple(c for c in SELECTABLE_CLIENTS if c in given)


def render_targets(selection: Iterable[str]) -> tuple[str, ...]:
    """Render targets for a selection, deduplicated, in canonical order.

    An empty selection means the baseline clients (the documented default).
    """
    chosen = {render_target(c) for c in (tuple(selection) or BASELINE_CLIENTS)}
    return tuple(t for t in RENDER_TARGETS if t in chosen)


@functools.cache
def skill_fields(target: str, *, home: bool) -> frozenset[str]:
    """The skill fields `target`'s copy of a skill carries in a scope: those defined by
    every client that writes that same file (`.agents/skills/` serves nine clients, and
    one file cannot hold one client's extension and not another's)."""
    where = get(target).entrypoint(SKILL, "{n}", home=home)
    sharing = [c for c in CLIENTS if not c.tree and c.entrypoint(SKILL, "{n}", home=home) == where]
    return frozenset.intersection(*(c.skill_fields for c in sharing))


def skill_field_readers(field: str) -> tuple[str, ...]:
    """The names of the clients that define skill field `field`, in registry order (VS
    Code reads Copilot's copies, so it counts with Copilot)."""
    return tuple(c.name for c in CLIENTS if field in get(c.render_as).skill_fields)
