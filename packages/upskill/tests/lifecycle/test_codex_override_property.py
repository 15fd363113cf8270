"""Codex beside the clients that read `AGENTS.md`, where upskill owns the file: every
selected client gets every always-on rule exactly once, whatever the selection and
whichever rules read differently for whom (issue 15, items 3 and 4).

The plan is asked in process (`render_desired` with the engine's decision,
`lifecycle.override`), and what each client reads is counted from it: a copy written
for it (a file whose owners name it), and each section in a compiled file it reads
(Codex: `AGENTS.override.md` when its rules moved there, else `AGENTS.md`; a client
reading `AGENTS.md`: the sections there). Beside another client compiling into
`AGENTS.md` (Amp, Junie, Zed, Droid, Crush) a rule whose text differs for a reader is
read twice by it whatever Codex does; that case is the install's `read twice` line,
checked in test_lifecycle_read_twice.py, and is left out here.
"""

from __future__ import annotations

import functools
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st
from upskill_testing import resolved_rules

from upskill.clients import get, render_target
from upskill.clients.base import RULE, Carrier
from upskill.lifecycle.compiled import compiled_paths
from upskill.lifecycle.desired import justifies, render_desired
from upskill.lifecycle.resolve import Resolved

HEAD = "---\nschema: 1\ndescription: {n}\n---\n\n## {n}\n\nCommon.\n"


def _block(family: str) -> str:
    return f"\n<!-- @client:{family} -->\nFor {family}.\n<!-- @endclient -->\n"


SOURCE: dict[str, str] = {
    "same": HEAD,
    "copilot-block": HEAD + _block("copilot"),
    "codex-block": HEAD + _block("codex"),
    "opencode-block": HEAD + _block("opencode"),
    "kilo-block": HEAD + _block("kilo"),
    "claude-block": HEAD + _block("claude"),
    "excluded": HEAD.replace("---\n\n", "copilot:\n  excludeAgent: code-review\n---\n\n", 1),
}
# Every client reading AGENTS.md from a tree of its own, and two that read no AGENTS.md.
READERS = ("claude", "copilot", "vscode", "opencode", "cursor", "windsurf", "cline", "kilo",
           "roo", "kiro", "qwen", "augment", "continue", "gemini")  # fmt: skip
OVERRIDE = {"codex": "AGENTS.override.md"}


@functools.cache
def _items(root: str) -> tuple[Resolved, ...]:
    return resolved_rules(Path(root), SOURCE)


def _reads(
    items: tuple[Resolved, ...], selection: tuple[str, ...]
) -> tuple[dict[tuple[str, str], int], bool]:
    """(rule, client) -> how many places the client reads it in; and whether Codex's
    rules moved to the override (the engine's decision, every item judged by its text)."""
    ok = frozenset(compiled_paths(False))
    moved = any(justifies(r.item, selection, OVERRIDE, ok, {}) for r in items)
    moves = OVERRIDE if moved else {}
    desired = render_desired(items, lambda _: selection, compiled_ok=ok, moves=moves)
    counts: dict[tuple[str, str], int] = {}
    for f in desired.files.values():
        for owner in f.owners:
            key = (owner.item, owner.client)
            counts[key] = counts.get(key, 0) + 1
    for client in selection:
        spec = get(client)
        where = spec.kinds[RULE]
        if where.carrier is Carrier.COMPILED:
            files = {moves.get(render_target(client), where.project.template)}
        else:
            files = {p for p in spec.reads if not p.endswith("/")}
            if spec.registration.imports_agents_md:  # only through an import upskill adds
                files.discard("AGENTS.md")
        for s in desired.sections:
            if s.path in files:
                key = (f"rule:{s.name}", client)
                counts[key] = counts.get(key, 0) + 1
    return counts, moved


@settings(max_examples=200, deadline=None)
@given(
    readers=st.lists(st.sampled_from(READERS), unique=True, min_size=1, max_size=6),
    rules=st.sets(st.sampled_from(sorted(SOURCE)), min_size=1),
)
@example(readers=["copilot"], rules={"copilot-block", "same"})
@example(readers=["copilot", "opencode"], rules={"copilot-block", "same", "excluded"})
def test_each_client_reads_each_rule_once(
    tmp_path_factory, readers: list[str], rules: set[str]
) -> None:  # type: ignore[no-untyped-def]
    base = tmp_path_factory.getbasetemp() / "codex-override-source"
    items = tuple(r for r in _items(str(base)) if r.name in rules)
    selection = ("codex", *readers)
    counts, moved = _reads(items, selection)
    expected = {(f"rule:{n}", c): 1 for n in rules for c in selection}
    assert counts == expected
    # The override is written only when it removes a second read: a rule whose text
    # differs for a client reading AGENTS.md (and Claude reads it only through an import).
    direct = [c for c in readers if c not in ("claude", "gemini")]
    copilot = {"copilot", "vscode"}
    differs = {"copilot-block": copilot, "excluded": copilot, "opencode-block": {"opencode"},
               "kilo-block": {"kilo"}, "codex-block": set(direct)}  # fmt: skip
    assert moved == any(set(direct) & differs.get(n, set()) for n in rules)


COMPILERS = ("amp", "junie", "zed", "factory", "crush")


@settings(max_examples=200, deadline=None)
@given(
    readers=st.lists(st.sampled_from(READERS), unique=True, max_size=5),
    compilers=st.lists(st.sampled_from(COMPILERS), unique=True, min_size=1, max_size=2),
    rules=st.sets(st.sampled_from(sorted(SOURCE)), min_size=1),
)
@example(readers=[], compilers=["amp"], rules={"codex-block", "same"})
def test_beside_another_compiler_codex_and_it_read_each_rule_once(
    tmp_path_factory, readers: list[str], compilers: list[str], rules: set[str]
) -> None:  # type: ignore[no-untyped-def]
    """Beside Amp (…) compiling into AGENTS.md: Codex and each such client still read
    every rule once (Codex in the override when its text differs from theirs, never
    served by their section), and a reader of AGENTS.md at least once, at most twice."""
    base = tmp_path_factory.getbasetemp() / "codex-override-source"
    items = tuple(r for r in _items(str(base)) if r.name in rules)
    selection = ("codex", *compilers, *readers)
    counts, moved = _reads(items, selection)
    for n in rules:
        for c in selection:
            seen = counts.get((f"rule:{n}", c), 0)
            assert seen == 1 if c in ("codex", *compilers) else 1 <= seen <= 2, (n, c, seen)
    assert moved == ("codex-block" in rules)
