"""Which clients' copies of an agent are written, so that each client lists it once
(issue 15, item 3).

Every client writes agents to a tree of its own, but some read other clients'
agent trees too: Cursor reads `.claude/agents/` and `.codex/agents/`, Copilot
CLI and VS Code read `.claude/agents/` (each client's `reads`). A client
verified to show one agent per name, its own tree first (`Client.agent_trees`:
Copilot CLI), needs nothing. A client that lists every copy (VS Code, from
its source: `Client.lists_agent_copies`), or is not known to show one per name
(Cursor), would load an agent written for it and for Claude Code twice; each
line says which of the two it is. Where the renderings are the
same byte for byte, `desired.served_elsewhere` already writes one copy. Where
they differ, this module tries leaving out the own copy of each target whose
clients all list every copy and read another tree, and keeps the choice where
the fewest clients list the agent other than once, then where the fewest list
another client's rendering, then the fewest copies. A target with a client
verified to prefer its own copy always keeps it: that copy is known to work,
and giving it up would trade a verified fact for an unverified one. A client
still left without its own rendering exactly once is reported (`lines`), one
line per client and outcome, never skipped silently. Project scope only: the
cross-reads were verified in projects. A tree a client is told not to read
(`lifecycle.agenttrees`: VS Code's `chat.agentFilesLocations`) is left out of what
it lists: the plan takes the trees expected hidden after the run, and the lines the
trees hidden in the end.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from upskill.clients import get, render_target
from upskill.clients.base import AGENT

if TYPE_CHECKING:
    from upskill.render import Rendering


@dataclass(frozen=True)
class Miss:
    """One client that does not list one agent once, in its own rendering."""

    client: str
    key: str
    seen: tuple[str, ...]  # the trees whose copy it lists, in its order
    rendered_for: tuple[str, ...]  # the render target of each of those copies


@dataclass(frozen=True)
class AgentPlan:
    # Targets that write no copy: each maps to the target whose copy its clients list
    # (the copy is then recorded as written for them too, like `served_elsewhere`).
    served: dict[str, str]
    misses: tuple[Miss, ...]


def own_tree(target: str) -> str:
    return get(target).kinds[AGENT].project.tree


Hidden = Mapping[str, frozenset[str]]  # client -> project agent trees it does not read
NONE: Hidden = {}


def _reads(client: str, hidden: Hidden) -> list[str]:
    """The project agent trees `client` reads, preferred first, less those it is told
    not to read."""
    gone = hidden.get(client, frozenset())
    return [t for t in get(client).project_agent_trees() if t not in gone]


def _seen(client: str, written: Mapping[str, str], hidden: Hidden = NONE) -> list[str]:
    """The trees whose copy `client` lists, given tree -> the target written there."""
    copies = [tree for tree in _reads(client, hidden) if tree in written]
    return copies[:1] if get(client).one_agent_per_name else copies


class _Planner:
    """One agent's renderings and readers; `best` picks the copies to leave out among
    those of targets whose clients all list every copy and read another written tree."""

    def __init__(
        self,
        targets: Mapping[str, Sequence[str]],
        renderings: Mapping[str, Rendering],
        served: Mapping[str, str],
        hidden: Hidden,
    ) -> None:
        self.targets = targets
        self.data = {t: r.files[0].data for t, r in renderings.items() if r.files}
        self.served = served
        self.hidden = hidden
        self.clients = [c for t in self.data for c in targets[t]]
        trees = {own_tree(t) for t in self.data if t not in served}
        self.droppable = [
            t
            for t in self.data
            if t not in served
            and all(
                not get(c).one_agent_per_name
                and any(r != own_tree(t) and r in trees for r in _reads(c, hidden))
                for c in targets[t]
            )
        ]

    def written(self, dropped: Iterable[str]) -> dict[str, str]:
        gone = set(dropped) | set(self.served)
        return {own_tree(t): t for t in self.data if t not in gone}

    def own(self, client: str, written: Mapping[str, str], tree: str) -> bool:
        return self.data[written[tree]] == self.data[render_target(client)]

    def score(self, written: Mapping[str, str]) -> tuple[int, int, int, int]:
        """Fewest clients listing the agent other than once, then fewest extra listings,
        then fewest listing another client's rendering, then fewest copies."""
        seen = {c: _seen(c, written, self.hidden) for c in self.clients}
        not_once = sum(len(s) != 1 for s in seen.values())
        extra = sum(max(len(s) - 1, 0) for s in seen.values())
        other = sum(any(not self.own(c, written, t) for t in s) for c, s in seen.items())
        return not_once, extra, other, len(written)

    def best(self) -> tuple[str, ...]:
        choices = itertools.chain.from_iterable(
            itertools.combinations(self.droppable, n) for n in range(len(self.droppable) + 1)
        )
        return min(
            (d for d in choices if self.reaches(d)), key=lambda d: self.score(self.written(d))
        )

    def reaches(self, dropped: Sequence[str]) -> bool:
        """Every client of a left-out copy still lists some copy."""
        written = self.written(dropped)
        return all(_seen(c, written, self.hidden) for t in dropped for c in self.targets[t])


def plan_agent(
    key: str,
    targets: Mapping[str, Sequence[str]],
    renderings: Mapping[str, Rendering],
    served: Mapping[str, str],
    hidden: Hidden = NONE,
) -> AgentPlan:
    """The copies of one agent to leave out, and who does not list it once in its own
    rendering. `served`: targets already reading another target's identical copy.
    `hidden`: the trees expected hidden after the run, which the choice counts on; the
    misses name every tree a client reads, and `lines` leaves out those hidden in the
    end."""
    planner = _Planner(targets, renderings, served, hidden)
    dropped = planner.best()
    written = planner.written(dropped)
    extra: dict[str, str] = {}
    for target in dropped:
        seen = [s for c in targets[target] for s in _seen(c, written, hidden)]
        extra[target] = written[seen[0]]
    misses = []
    for client in planner.clients:
        seen = _seen(client, written)
        if len(seen) != 1 or not planner.own(client, written, seen[0]):
            rendered = tuple(written[t] for t in seen)
            misses.append(Miss(client, key, tuple(seen), rendered))
    return AgentPlan(extra, tuple(misses))


def visible(miss: Miss, hidden: Hidden) -> Miss | None:
    """The miss as the client sees it with `hidden` trees unread (None: it then lists
    the agent once, in its own rendering)."""
    gone = hidden.get(miss.client, frozenset())
    pairs = [(t, r) for t, r in zip(miss.seen, miss.rendered_for, strict=True) if t not in gone]
    if len(pairs) == 1 and pairs[0][1] == render_target(miss.client):
        return None
    return Miss(miss.client, miss.key, tuple(t for t, _ in pairs), tuple(r for _, r in pairs))


def lines(misses: Sequence[Miss], hidden: Hidden = NONE) -> list[str]:
    """One line per client and outcome, naming the agents and the trees it reads (less
    the `hidden` ones, which it does not read)."""
    groups: dict[tuple[str, tuple[str, ...], tuple[str, ...]], list[str]] = {}
    for miss in misses:
        m = visible(miss, hidden)
        if m is None:
            continue
        groups.setdefault((m.client, m.seen, m.rendered_for), []).append(m.key)
    out = []
    for (client, seen, rendered), keys in sorted(groups.items()):
        spec = get(client)
        what = f"{len(keys)} agent{'s' if len(keys) > 1 else ''} ({', '.join(sorted(keys))})"
        reads = ", ".join(_reads(client, hidden))
        known = spec.lists_agent_copies
        shows = "lists every copy" if known else "is not known to show one copy per name"
        why = f"{spec.name} reads {reads} and {shows}"
        if not seen:
            out.append(f"{client}: {what} not delivered ({why})")
        elif len(seen) > 1:
            out.append(f"{client}: {what} listed {len(seen)} times, from {', '.join(seen)} ({why})")
        else:
            verb = "reach" if len(keys) > 1 else "reaches"
            out.append(
                f"{client}: {what} {verb} it as {get(rendered[0]).name}'s copy in {seen[0]}, "
                f"not in its own rendering ({why}, so a copy of its own "
                f"{'would' if known else 'could'} be listed twice)"
            )
    return out
