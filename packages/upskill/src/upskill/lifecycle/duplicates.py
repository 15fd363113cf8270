"""Items a client would load twice, or from a copy that varies (issue 15, item 3),
for `doctor`.

Clients read each other's trees (Cursor reads `.claude/agents`, Copilot
`.claude/skills`, Codex `.agents/skills`). What one name in several of them does
to a client is a registry fact (`_shows`): a client that does not deduplicate by
name lists it once per tree holding it (`duplicates`); one that shows the first
tree's copy needs nothing; one that shows a single copy whose tree changes from
run to run (opencode 1.18.33: `Client.skill_order`) may show any of them, which
matters only when their bytes differ (`varying`). Only names on disk count,
upskill's outputs or not: a hand-made copy duplicates just the same. Rules are
never deduplicated: a rule in a client's own tree and in a compiled instructions
file it also reads (`AGENTS.md`; a `GEMINI.md` compiled before Gemini's rules
moved to `.gemini/upskill.md`) is read twice, and so is a rule compiled into two
files it reads.
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from upskill.clients import CLIENTS, get
from upskill.clients.base import AGENT, RULE, SKILL, Carrier, Client, Layout
from upskill.errors import UpskillError
from upskill.fsio import read_contained
from upskill.lifecycle import agenttrees
from upskill.lifecycle.compiled import split_block
from upskill.lifecycle.contextfiles import configured_reads
from upskill.lifecycle.desired import rule_trees_read
from upskill.lifecycle.hashing import tree_hash
from upskill.render.compiled import parse_sections


@dataclass(frozen=True)
class _Tree:
    path: str  # scope-relative, ends with `/`
    suffix: str  # what follows the name: `/SKILL.md`, `.agent.md`


def _trees(kind: str) -> dict[str, _Tree]:
    """Every project tree any client writes `kind` into, by path."""
    found: dict[str, _Tree] = {}
    for client in CLIENTS:
        where = client.kinds.get(kind)
        if where is not None:
            layout: Layout = where.project
            found.setdefault(layout.tree, _Tree(layout.tree, layout.template.split("{n}", 1)[1]))
    return found


def _names(root: Path, tree: _Tree) -> set[str]:
    """The item names present in one tree (a directory entry matching its layout)."""
    base = root / tree.path
    try:
        entries = [p.name for p in base.iterdir()]
    except OSError:
        return set()
    if tree.suffix.startswith("/"):  # a directory per item, holding its entrypoint
        return {e for e in entries if (base / e / tree.suffix[1:]).is_file()}
    return {e[: -len(tree.suffix)] for e in entries if e.endswith(tree.suffix) and e != tree.suffix}


class Shows(enum.Enum):
    """What a client shows of one name found in several trees it reads."""

    FIRST = "first"  # the copy in the tree it prefers: nothing to report
    ANY = "any"  # one copy, from a tree that is not always the same
    EVERY = "every"  # each copy: the name is listed once per tree


def _shows(client: Client, kind: str, home: bool) -> Shows:
    """From the registry: `dedupes` and `skill_order` (`user_skill_order` at user level)
    for skills, `agent_trees` for agents (no client is known to pick an agent copy at
    random)."""
    if kind == SKILL:
        if not client.dedupes:
            return Shows.EVERY
        return Shows.FIRST if client.ordered_skills(home) else Shows.ANY
    return Shows.FIRST if client.one_agent_per_name else Shows.EVERY


def _copies(root: Path, client: Client, kind: str, home: bool) -> dict[str, list[str]]:
    """Each name of `kind` on disk in the trees `client` reads in the scope, and the
    trees holding it, in the client's order: less the agent trees its workspace settings
    tell it not to read (`lifecycle.agenttrees`; agents are counted in a project only)."""
    trees = _trees(kind)
    if kind == SKILL:  # every skills tree it reads, its own private ones too
        reads = list(client.skill_trees_at(home))
    else:
        gone = agenttrees.hidden(lambda p: _read(root, p)).get(client.id, frozenset())
        reads = [t for t in client.project_agent_trees() if t in trees and t not in gone]
    seen: dict[str, list[str]] = {}
    for path in dict.fromkeys(reads):
        for name in _names(root, trees.get(path) or _Tree(path, "/SKILL.md")):
            seen.setdefault(name, []).append(path)
    return seen


def _found(
    root: Path, clients: tuple[str, ...], shows: Shows, home: bool = False
) -> list[tuple[str, str, str, list[str]]]:
    """(client, kind, name, trees) for each name in several trees a client reads, for
    the clients that show such a name the way `shows` says. `home`: the user level,
    where only the skill trees are known (`Client.user_skill_trees`)."""
    out = []
    for kind in (SKILL,) if home else (SKILL, AGENT):
        for client_id in clients:
            client = get(client_id)
            if kind not in client.kinds or _shows(client, kind, home) is not shows:
                continue
            for name, paths in sorted(_copies(root, client, kind, home).items()):
                if len(paths) > 1:
                    out.append((client_id, kind, name, paths))
    return out


def duplicates(root: Path, clients: tuple[str, ...]) -> list[dict[str, Any]]:
    """Per client that lists every copy of a name, kind and name: the trees it reads it
    from, when more than one; then the rules read twice. Project scope: the cross-reads
    recorded are project paths."""
    out = [
        {"client": client, "kind": kind, "name": name, "trees": paths}
        for client, kind, name, paths in _found(root, clients, Shows.EVERY)
    ]
    return out + _rules(root, clients) + _imports(root, clients)


def varying(root: Path, clients: tuple[str, ...], home: bool = False) -> list[dict[str, Any]]:
    """Per client that shows one copy of a name from a tree that varies, kind and name:
    the trees holding it, when their copies differ (identical copies show the same
    whichever it picks). `home`: the user level (`root` is $HOME), where opencode's
    pick varies too."""
    return [
        {"client": client, "kind": kind, "name": name, "trees": paths}
        for client, kind, name, paths in _found(root, clients, Shows.ANY, home)
        if len({_content(root, path + name) for path in paths}) > 1
    ]


def _content(root: Path, item: str) -> str:
    """What identifies one skill copy's bytes (a directory): its real path when that
    leaves the project (a copy linked from elsewhere is compared by where it is, never
    read), else the hash of its files (unreadable: its real path, unlike any other)."""
    real = os.path.realpath(root / item)
    inside = Path(real).is_relative_to(os.path.realpath(root))
    return (tree_hash(Path(real)) if inside else None) or real


def _read(root: Path, path: str) -> bytes | None:
    try:
        return read_contained(root / path, within=root)
    except (OSError, UpskillError):  # unreadable or refused: nothing to compare
        return None


def _sections(root: Path, path: str) -> set[str]:
    """The rule names compiled into a file (or into its managed block)."""
    data = _read(root, path)
    if data is None:
        return set()
    block = split_block(data)
    return set(parse_sections(block.content if block is not None else data) or ())


def _rules(root: Path, clients: tuple[str, ...]) -> list[dict[str, Any]]:
    """Per client: each rule found in more than one place it reads. A client with a rule
    tree reads that tree and every single file in its `reads` (the compiled sections in
    them); a client with a compiled file reads that file, its alternative (Crush's
    `CRUSH.md`), the other clients' rule trees it reads whole (Crush: `.cursor/rules/`)
    and the files its project settings name (`lifecycle.contextfiles`: Gemini listing
    `AGENTS.md`)."""
    configured = configured_reads(lambda p: _read(root, p))
    out: list[dict[str, Any]] = []
    for client_id in clients:
        client = get(client_id)
        where = client.kinds.get(RULE)
        if where is None:
            continue
        seen: dict[str, list[str]] = {}
        if where.carrier is Carrier.COMPILED:
            own = where.project.template
            if where.override and _read(root, where.override) is not None:
                own = where.override  # read instead of the compiled file (Codex)
            # The file it reads besides (Crush's `CRUSH.md`), where its rules go while the
            # compiled file is a team's own.
            also = [where.alternative] if where.alternative else []
            files = [own, *also, *sorted(configured.get(client_id, ()))]
            # Another client's rule tree it reads every file of (Crush: `.cursor/rules/`).
            for tree, writer in sorted(rule_trees_read(client_id).items()):
                suffix = get(writer).kinds[RULE].project.template.split("{n}", 1)[1]
                for name in _names(root, _Tree(tree, suffix)):
                    seen.setdefault(name, []).append(tree)
        else:
            tree = where.project.tree
            suffix = where.project.template.split("{n}", 1)[1]
            seen = {name: [tree] for name in _names(root, _Tree(tree, suffix))}
            files = sorted(r for r in client.reads if not r.endswith("/"))
        for path in dict.fromkeys(files):
            for name in sorted(_sections(root, path)):
                seen.setdefault(name, []).append(path)
        for name, paths in sorted(seen.items()):
            if len(paths) > 1:
                out.append({"client": client_id, "kind": RULE, "name": name, "trees": paths})
    return out


def _imports(root: Path, clients: tuple[str, ...]) -> list[dict[str, Any]]:
    """Per client that expands the imports of a file it reads (`follows_imports`: Copilot
    CLI and a team `CLAUDE.md` holding `@AGENTS.md`): each file it reads itself and again
    through such an import, whole. upskill never rewrites the team's import file."""
    out: list[dict[str, Any]] = []
    for client_id in clients:
        client = get(client_id)
        for importer in client.follows_imports:
            words = (_read(root, importer) or b"").split()
            names = {w[1:].decode("utf-8", "replace") for w in words if w[:1] == b"@"}
            for name in sorted(n for n in names if n in client.reads):
                if _read(root, name) is not None:
                    trees = [name, importer]
                    out.append({"client": client_id, "kind": "file", "name": name, "trees": trees})
    return out
