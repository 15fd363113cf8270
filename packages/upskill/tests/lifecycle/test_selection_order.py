"""The plan is a function of the selected clients as a set (issue 15, item 3): the same
clients given in another order (flags, a config's `clients:`, a lockfile's recorded
selection) plan the same files, bytes and owners, and say the same lines in the same
order, at project and at user scope. Where two placements of a skill serve the clients
equally, the tie is broken by registry order (`lifecycle/skillplace.py`), never by the
order given."""

from __future__ import annotations

import functools
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from upskill.clients import SELECTABLE_CLIENTS
from upskill.lifecycle.catalog import load_catalog
from upskill.lifecycle.compiled import compiled_paths
from upskill.lifecycle.desired import Desired, render_desired
from upskill.lifecycle.resolve import Resolved
from upskill.sources.local import local_fetched
from upskill.sources.spec import parse_label

HEAD = "---\nschema: 1\ndescription: Use when testing {n}\n---\n\n"
AGENT_HEAD = (
    "---\nschema: 1\ndescription: Use when testing {n}\nmode: subagent\nmodel: sonnet\n"
    "tools:\n  - read\n  - bash\n---\n\n"
)
# Items whose renderings differ between clients in the ways placement has to resolve:
# a client block, a per-client override file, and the same for every client.
SOURCE: dict[str, str] = {
    "skills/same/SKILL.md": HEAD + "Common.\n",
    "skills/codex/SKILL.md": HEAD + "Common.\n\n<!-- @client:codex -->\nCodex.\n"
    "<!-- @endclient -->\n",
    "skills/gemini/SKILL.md": HEAD + "Common.\n\n<!-- @client:gemini -->\nGemini.\n"
    "<!-- @endclient -->\n",
    "skills/oc/SKILL.md": HEAD + "Common.\n",
    "skills/oc/SKILL.opencode.md": "For opencode.\n",
    "skills/kilo/SKILL.md": HEAD + "Common.\n",
    "skills/kilo/SKILL.kilo.md": "For Kilo.\n",
    "skills/kilo/notes.md": "A resource.\n",
    "skills/reviewer/AGENT.md": AGENT_HEAD + "Review.\n",
    "skills/style/RULE.md": HEAD + "Use ruff.\n",
    "skills/picky/RULE.md": HEAD + "Be picky.\n\n<!-- @client:copilot -->\nCopilot.\n"
    "<!-- @endclient -->\n",
}


@functools.cache
def _items(root: str) -> tuple[Resolved, ...]:
    base = Path(root)
    for rel, text in SOURCE.items():
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.replace("{n}", rel.split("/")[1]))
    catalog = load_catalog(local_fetched(parse_label(f"local:{base}")))
    return tuple(
        Resolved(item, kind, name, name, catalog)
        for (kind, name), item in sorted(catalog.items.items())
    )


def _plan(
    items: tuple[Resolved, ...], selection: tuple[str, ...], home: bool, gemini_agents: bool
) -> tuple[object, ...]:
    """Everything a run would write and say, for one selection order: each file's bytes,
    mode and owners (sorted, as the lockfile records them), the compiled sections (each
    file is assembled in name order), the lines in the order they are printed, and each
    item's clients in the order the lockfile records them (`desired.clients_for`)."""
    desired: Desired = render_desired(
        items,
        lambda _: selection,
        home=home,
        compiled_ok=frozenset(compiled_paths(home)),
        configured={"gemini": frozenset({"AGENTS.md"})} if gemini_agents and not home else {},
    )
    files = {
        path: (f.data, f.mode, sorted(str(o) for o in f.owners))
        for path, f in desired.files.items()
    }
    sections = sorted(
        (s.path, s.name, s.data, sorted(str(o) for o in s.owners)) for s in desired.sections
    )
    return files, sections, desired.warnings, desired.item_clients


@st.composite
def _orders(draw: st.DrawFn) -> tuple[tuple[str, ...], tuple[str, ...]]:
    chosen = draw(
        st.lists(st.sampled_from(SELECTABLE_CLIENTS), unique=True, min_size=2, max_size=7)
    )
    return tuple(chosen), tuple(draw(st.permutations(chosen)))


@settings(max_examples=300, deadline=None)
@given(orders=_orders(), home=st.booleans(), gemini_agents=st.booleans())
# The tie that used to follow the order given: at user level Windsurf and opencode both
# write `~/.agents/skills` and read a copy there, so one of them misses its rendering.
@example(orders=(("windsurf", "opencode"), ("opencode", "windsurf")), home=True,
         gemini_agents=False)  # fmt: skip
def test_any_order_of_a_selection_plans_the_same_files(
    tmp_path_factory,
    orders: tuple[tuple[str, ...], tuple[str, ...]],
    home: bool,
    gemini_agents: bool,
) -> None:  # type: ignore[no-untyped-def]
    items = _items(str(tmp_path_factory.getbasetemp() / "selection-order-source"))
    one, other = orders
    assert _plan(items, one, home, gemini_agents) == _plan(items, other, home, gemini_agents)


def test_the_tie_at_user_level_goes_to_the_registry_order(tmp_path: Path) -> None:
    # opencode is before Windsurf in the registry: its override keeps the shared copy and
    # Windsurf is told, whichever order the two were given in.
    items = [r for r in _items(str(tmp_path)) if r.key == "skill:oc"]
    for selection in (("windsurf", "opencode"), ("opencode", "windsurf")):
        desired = render_desired(items, lambda _, s=selection: s, home=True)
        assert {p: f.data for p, f in desired.files.items()} == {
            ".agents/skills/oc/SKILL.md": b"---\nname: oc\ndescription: Use when testing oc\n"
            b"---\n\nFor opencode.\n"
        }
        assert desired.warnings == (
            "skill:oc: windsurf sees the copy in .agents/skills/, rendered for opencode (one "
            "copy in .agents/skills/ serves every client that reads it)",
        )
