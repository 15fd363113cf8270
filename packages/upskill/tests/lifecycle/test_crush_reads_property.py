"""Crush beside any selection of clients, with or without a team's own `AGENTS.md`:
each selected rule reaches Crush exactly once in the files Crush reads (issue 15,
items 3 and 4; `clients/crush.py` has the facts from Crush's source).

The plan is asked in process (`render_desired`, with the engine's Codex override
decision), and what Crush reads is counted from it: each section in `AGENTS.md` (when
upskill may write it) and `CRUSH.md`, and each file under a tree Crush reads whole
(`.cursor/rules/`), whoever it was written for. Two cases are not "once", and the run
says so in one line each: a rule whose text differs for Cursor, which keeps a copy of
its own under `.cursor/rules/` beside Crush's (`read twice`), and a path-scoped rule,
which Crush reads always-on in Cursor's copy, or not at all without Cursor (`read
always-on`, `not delivered`).
"""

from __future__ import annotations

import functools
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st
from upskill_testing import resolved_rules

from upskill.clients import get
from upskill.lifecycle.compiled import compiled_paths
from upskill.lifecycle.desired import Desired, justifies, render_desired
from upskill.lifecycle.resolve import Resolved

HEAD = "---\nschema: 1\ndescription: {n}\n---\n\n## {n}\n\nCommon.\n"


def _block(family: str) -> str:
    return f"\n<!-- @client:{family} -->\nFor {family}.\n<!-- @endclient -->\n"


SOURCE: dict[str, str] = {
    "same": HEAD,
    "cursor-block": HEAD + _block("cursor"),
    "crush-block": HEAD + _block("crush"),
    "codex-block": HEAD + _block("codex"),
    "copilot-block": HEAD + _block("copilot"),
    "cursor-passthrough": HEAD.replace("---\n\n", "cursor:\n  description: Cursor's\n---\n\n", 1),
    "scoped": HEAD.replace("---\n\n", "scope:\n  paths: ['**/*.py']\n---\n\n", 1),
}
OTHERS = ("codex", "cursor", "copilot", "claude", "gemini", "opencode", "windsurf", "cline")
OVERRIDE = {"codex": "AGENTS.override.md"}
CRUSH = get("crush")
TREES = tuple(r for r in CRUSH.reads if r.endswith("/"))
FILES = ("AGENTS.md", "CRUSH.md")  # the compiled files among the single files it reads


@functools.cache
def _items(root: str) -> tuple[Resolved, ...]:
    return resolved_rules(Path(root), SOURCE)


def _plan(
    items: tuple[Resolved, ...], selection: tuple[str, ...], team: bool
) -> tuple[Desired, frozenset[str]]:
    """The run's plan, and the compiled files upskill may write (not a team's own)."""
    ok = frozenset(compiled_paths(False)) - ({"AGENTS.md"} if team else set())
    # The engine moves Codex to its override only beside an AGENTS.md upskill owns.
    moved = not team and any(justifies(r.item, selection, OVERRIDE, ok, {}) for r in items)
    moves = OVERRIDE if moved else {}
    return render_desired(items, lambda _: selection, compiled_ok=ok, moves=moves), ok


def _crush_reads(desired: Desired, ok: frozenset[str]) -> dict[str, int]:
    """Rule key -> how many places Crush reads it in."""
    counts: dict[str, int] = {}
    for f in desired.files.values():
        if f.path.startswith(TREES):
            for key in {o.item for o in f.owners}:
                counts[key] = counts.get(key, 0) + 1
    for s in desired.sections:
        if s.path in FILES and s.path in ok:
            key = f"rule:{s.name}"
            counts[key] = counts.get(key, 0) + 1
    return counts


@settings(max_examples=300, deadline=None)
@given(
    others=st.lists(st.sampled_from(OTHERS), unique=True, max_size=5),
    rules=st.sets(st.sampled_from(sorted(SOURCE)), min_size=1),
    team=st.booleans(),
)
@example(others=["cursor"], rules={"same"}, team=True)
@example(others=["codex", "cursor"], rules={"crush-block", "cursor-passthrough"}, team=False)
@example(others=["copilot", "cursor"], rules={"cursor-passthrough"}, team=True)
def test_each_rule_reaches_crush_once(
    tmp_path_factory, others: list[str], rules: set[str], team: bool
) -> None:  # type: ignore[no-untyped-def]
    base = tmp_path_factory.getbasetemp() / "crush-reads-source"
    items = tuple(r for r in _items(str(base)) if r.name in rules)
    selection = ("crush", *others)
    desired, ok = _plan(items, selection, team)
    counts, warnings = _crush_reads(desired, ok), desired.warnings
    twice = [w for w in warnings if w.startswith("crush: ") and " read twice (" in w]
    cursor = "cursor" in others
    for name in rules:
        key = f"rule:{name}"
        seen = counts.get(key, 0)
        if name == "scoped":
            assert seen == (1 if cursor else 0), (key, seen)
            said = "read always-on" if cursor else "not delivered"
            assert any(w.startswith(f"crush: 1 path-scoped rule {said}") for w in warnings)
        elif cursor and name in ("cursor-block", "crush-block"):
            # The text differs for Cursor and Crush: Cursor keeps a copy of its own,
            # Crush reads both, and the run says so.
            assert seen == 2, (key, seen)
            assert any(key in w and ".cursor/rules/" in w for w in twice), warnings
        elif cursor and name == "cursor-passthrough" and not team and len(others) > 1:
            # Cursor keeps its copy for its block; Crush's section in AGENTS.md stays
            # when another client reads it there too (Codex compiling, Copilot served):
            # said. Else Cursor's copy serves Crush.
            assert seen == 1 or (seen == 2 and any(key in w for w in twice)), (key, seen)
        else:
            assert seen == 1, (key, seen)
    # Twice only where Cursor keeps a copy of its own, and said exactly then.
    assert not twice or cursor
    said = {k for w in twice for k in counts if f"{k}," in w or f"{k})" in w}
    assert said == {k for k, n in counts.items() if n == 2}
    if cursor:  # Cursor reads its own copies and AGENTS.md: said exactly when twice
        theirs = _cursor_reads(desired, ok)
        told = [w for w in warnings if w.startswith("cursor: ") and " read twice (" in w]
        said = {k for w in told for k in theirs if f"{k}," in w or f"{k})" in w}
        assert said == {k for k, n in theirs.items() if n == 2}
        assert all(n in (1, 2) for n in theirs.values())


def _cursor_reads(desired: Desired, ok: frozenset[str]) -> dict[str, int]:
    """Rule key -> how many places Cursor reads it in: its own copies under
    `.cursor/rules/` and the sections of an `AGENTS.md` upskill may write."""
    counts: dict[str, int] = {}
    for f in desired.files.values():
        if f.path.startswith(".cursor/rules/"):
            for key in {o.item for o in f.owners if o.client == "cursor"}:
                counts[key] = counts.get(key, 0) + 1
    for s in desired.sections:
        if s.path == "AGENTS.md" and s.path in ok:
            counts[f"rule:{s.name}"] = counts.get(f"rule:{s.name}", 0) + 1
    return counts
