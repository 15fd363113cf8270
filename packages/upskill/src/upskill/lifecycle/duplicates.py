"""Skills and agents a client would load twice (issue 15, item 3), for `doctor`.

Clients read each other's trees (Cursor reads `.claude/agents`, Copilot
`.claude/skills`, Codex `.agents/skills`). A client that does not deduplicate by
name then lists one skill or agent once per tree holding it. Only names on disk
count, upskill's outputs or not: a hand-made copy duplicates just the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from upskill.clients import CLIENTS, get
from upskill.clients.base import AGENT, SKILL, Layout


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
    """Per client (that does not deduplicate), kind and name: the trees it reads it from,
    when more than one. Project scope: the cross-reads recorded are project paths."""
    out: list[dict[str, Any]] = []
    for kind in (SKILL, AGENT):
        trees = _trees(kind)
        for client_id in clients:
            client = get(client_id)
            where = client.kinds.get(kind)
            if client.dedupes or where is None:
                continue
            reads = [where.project.tree, *(t for t in client.reads if t in trees)]
            seen: dict[str, list[str]] = {}
            for path in dict.fromkeys(reads):
                for name in _names(root, trees[path]):
                    seen.setdefault(name, []).append(path)
            for name, paths in sorted(seen.items()):
                if len(paths) > 1:
                    out.append({"client": client_id, "kind": kind, "name": name, "trees": paths})
    return out
