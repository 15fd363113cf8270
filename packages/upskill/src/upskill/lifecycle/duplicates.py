"""Items a client would load twice (issue 15, item 3), for `doctor`.

Clients read each other's trees (Cursor reads `.claude/agents`, Copilot
`.claude/skills`, Codex `.agents/skills`). A client that does not deduplicate by
name then lists one skill or agent once per tree holding it. Only names on disk
count, upskill's outputs or not: a hand-made copy duplicates just the same. Rules
are never deduplicated: a rule in a client's own tree and in a compiled
instructions file it also reads (`AGENTS.md`; a `GEMINI.md` compiled before
Gemini's rules moved to `.gemini/upskill.md`) is read twice, and so is a rule
compiled into two files it reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from upskill.clients import CLIENTS, get
from upskill.clients.base import AGENT, RULE, SKILL, Carrier, Layout
from upskill.errors import UpskillError
from upskill.fsio import read_contained
from upskill.lifecycle.compiled import split_block
from upskill.lifecycle.contextfiles import configured_reads
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


def duplicates(root: Path, clients: tuple[str, ...]) -> list[dict[str, Any]]:
    """Per client (that does not show one copy per name), kind and name: the trees it reads it from,
    when more than one. Project scope: the cross-reads recorded are project paths."""
    out: list[dict[str, Any]] = []
    for kind in (SKILL, AGENT):
        trees = _trees(kind)
        for client_id in clients:
            client = get(client_id)
            where = client.kinds.get(kind)
            shows_one = client.dedupes if kind == SKILL else client.one_agent_per_name
            if shows_one or where is None:
                continue
            if kind == SKILL:  # every skills tree it reads, its own private ones too
                reads = list(client.project_skill_trees())
            else:
                reads = [t for t in client.project_agent_trees() if t in trees]
            seen: dict[str, list[str]] = {}
            for path in dict.fromkeys(reads):
                for name in _names(root, trees.get(path) or _Tree(path, "/SKILL.md")):
                    seen.setdefault(name, []).append(path)
            for name, paths in sorted(seen.items()):
                if len(paths) > 1:
                    out.append({"client": client_id, "kind": kind, "name": name, "trees": paths})
    return out + _rules(root, clients)


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
    them); a client with a compiled file reads that file and the files its project
    settings name (`lifecycle.contextfiles`: Gemini listing `AGENTS.md`)."""
    configured = configured_reads(lambda p: _read(root, p))
    out: list[dict[str, Any]] = []
    for client_id in clients:
        client = get(client_id)
        where = client.kinds.get(RULE)
        if where is None:
            continue
        seen: dict[str, list[str]] = {}
        if where.carrier is Carrier.COMPILED:
            files = [where.project.template, *sorted(configured.get(client_id, ()))]
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
