"""The agent placement (`lifecycle/agentplace.py`) on the registry's read facts: which
copies are left out, who is told what, and that no choice is worse than writing every
copy (issue 15, item 3)."""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from upskill.clients import CLIENTS, get, render_target
from upskill.clients.base import AGENT
from upskill.lifecycle.agentplace import Miss, lines, own_tree, plan_agent
from upskill.render import OutputFile, Rendering

AGENT_CLIENTS = [c.id for c in CLIENTS if AGENT in c.kinds]


def _renderings(
    targets: Mapping[str, list[str]], same: frozenset[str] = frozenset()
) -> dict[str, Rendering]:
    """One rendering per target, each its own bytes unless the target is in `same`."""
    out: dict[str, Rendering] = {}
    for t in targets:
        data = b"common" if t in same else f"for {t}".encode()
        path = get(t).kinds[AGENT].project.entrypoint("x")
        out[t] = Rendering((OutputFile(path, data, 0o644),), ())
    return out


def _targets(clients: list[str]) -> dict[str, list[str]]:
    targets: dict[str, list[str]] = {}
    for c in clients:
        targets.setdefault(render_target(c), []).append(c)
    return targets


def test_cursor_leaves_its_copy_to_claudes() -> None:
    targets = _targets(["claude", "cursor"])
    plan = plan_agent("agent:x", targets, _renderings(targets), {})
    assert plan.served == {"cursor": "claude"}
    assert plan.misses == (Miss("cursor", "agent:x", (".claude/agents/",), ("claude",)),)


def test_cursor_with_claude_and_codex_lists_two() -> None:
    targets = _targets(["claude", "codex", "cursor"])
    plan = plan_agent("agent:x", targets, _renderings(targets), {})
    assert plan.served == {"cursor": "claude"}
    assert plan.misses == (
        Miss("cursor", "agent:x", (".claude/agents/", ".codex/agents/"), ("claude", "codex")),
    )


def test_a_verified_preference_keeps_its_copy() -> None:
    targets = _targets(["claude", "copilot", "vscode"])
    plan = plan_agent("agent:x", targets, _renderings(targets), {})
    assert plan.served == {}  # Copilot CLI shows `.github/agents` first: kept
    assert plan.misses == (
        Miss("vscode", "agent:x", (".github/agents/", ".claude/agents/"), ("copilot", "claude")),
    )


def test_clients_reading_only_their_own_tree_need_nothing() -> None:
    targets = _targets(["cursor", "opencode", "gemini", "kilo"])
    plan = plan_agent("agent:x", targets, _renderings(targets), {})
    assert plan.served == {} and plan.misses == ()


def test_an_identical_copy_already_serving_is_kept_as_is() -> None:
    targets = _targets(["claude", "cursor"])
    same = _renderings(targets, frozenset({"claude", "cursor"}))
    plan = plan_agent("agent:x", targets, same, {"cursor": "claude"})
    assert plan.served == {} and plan.misses == ()


def test_lines_group_per_client_and_outcome() -> None:
    misses = [
        Miss("cursor", "agent:b", (".claude/agents/",), ("claude",)),
        Miss("cursor", "agent:a", (".claude/agents/",), ("claude",)),
        Miss("cursor", "agent:c", (".claude/agents/", ".codex/agents/"), ("claude", "codex")),
        Miss("cursor", "agent:d", (), ()),
    ]
    why = (
        "Cursor reads .cursor/agents/, .claude/agents/, .codex/agents/ and is not known to "
        "show one copy per name"
    )
    assert lines(misses) == [
        f"cursor: 1 agent (agent:d) not delivered ({why})",
        "cursor: 2 agents (agent:a, agent:b) reach it as Claude Code's copy in "
        f".claude/agents/, not in its own rendering ({why}, so a copy of its own could be "
        "listed twice)",
        f"cursor: 1 agent (agent:c) listed 2 times, from .claude/agents/, .codex/agents/ ({why})",
    ]


def test_vscode_lists_every_agent_copy_from_its_source() -> None:
    # clients/vscode.py: VS Code reads `.github/agents` and `.claude/agents` by default
    # and keeps one entry per file (chatModes.ts), so one name in both is two entries.
    vscode = get("vscode")
    assert vscode.project_agent_trees() == (".github/agents/", ".claude/agents/")
    assert vscode.lists_agent_copies and not vscode.one_agent_per_name
    assert not get("cursor").lists_agent_copies  # not known either way
    why = "VS Code reads .github/agents/, .claude/agents/ and lists every copy"
    misses = [
        Miss("vscode", "agent:a", (".github/agents/", ".claude/agents/"), ("copilot", "claude")),
        Miss("vscode", "agent:b", (".claude/agents/",), ("claude",)),
    ]
    assert lines(misses) == [
        "vscode: 1 agent (agent:b) reaches it as Claude Code's copy in .claude/agents/, "
        f"not in its own rendering ({why}, so a copy of its own would be listed twice)",
        f"vscode: 1 agent (agent:a) listed 2 times, from .github/agents/, .claude/agents/ ({why})",
    ]


def _seen(client: str, written: Mapping[str, str]) -> list[str]:
    """The reading model, restated: trees in the client's order, the first only where it
    is verified to show one copy per name."""
    spec = get(client)
    trees = [t for t in spec.project_agent_trees() if t in written]
    return trees[:1] if spec.agent_trees else trees


def _not_once(clients: list[str], written: Mapping[str, str]) -> int:
    return sum(len(_seen(c, written)) != 1 for c in clients)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(AGENT_CLIENTS), min_size=2, unique=True),
    st.sets(st.sampled_from(AGENT_CLIENTS)),
)
def test_the_plan_is_consistent_and_never_worse(clients: list[str], same: set[str]) -> None:
    targets = _targets(clients)
    renderings = _renderings(targets, frozenset(render_target(c) for c in same))
    plan = plan_agent("agent:x", targets, renderings, {})
    every = {own_tree(t): t for t in targets}
    written = {own_tree(t): t for t in targets if t not in plan.served}
    # No client is worse off for a dropped copy than with every copy written.
    assert _not_once(clients, written) <= _not_once(clients, every)
    for target, via in plan.served.items():
        assert via in written.values()
        for c in targets[target]:
            assert not get(c).agent_trees  # a verified own-tree preference keeps its copy
            assert own_tree(via) in _seen(c, written)
    # The misses are exactly the clients not listing their own rendering once.
    data = {t: r.files[0].data for t, r in renderings.items()}
    expected = set()
    for c in clients:
        seen = _seen(c, written)
        if len(seen) != 1 or data[written[seen[0]]] != data[render_target(c)]:
            expected.add((c, tuple(seen)))
    assert {(m.client, m.seen) for m in plan.misses} == expected
