"""Where each client's copy of a skill goes when the clients' renderings differ
(issue 15, item 3).

Nine clients write skills to the shared `.agents/skills`, and most clients read
other clients' skill trees too. When a skill renders the same for all of them,
one copy serves every reader (`desired.served_elsewhere`). When it does not (a
`<!-- @client -->` block, a `SKILL.<client>.md` override), one file cannot hold
every rendering. Each client's registry entry says which trees it reads skills
from in a project and at user level, preferred first, and whether it shows one
copy per name (`Client.skill_trees`, `Client.user_skill_trees`, `Client.dedupes`,
verified with the real clients). This
module tries each rendering in each shared tree (and none there), moves a
client whose copy lost to a tree only it reads where that makes it see its
own, and keeps the placement where the fewest clients miss their rendering,
then the one whose shared copy serves the most clients, then the fewest copies.
A client that still sees another client's rendering, sees it twice or not at all
gets one line saying so: the run delivers what it can and is never silent.

Two such cases have no placement in a project, for these client facts (checked with
the real clients in tests/clients/test_unservable_skills.py):

- Codex beside Windsurf, Junie or Zed with a Codex-only rendering: those three read
  `.agents/skills` only, Codex 0.171.0 lists the copy in each of `.agents/skills` and
  `.codex/skills`, and it turns a copy off (`[[skills.config]]`) only from
  `~/.codex/config.toml`, never from a project's `.codex/config.toml`.
- opencode beside Claude Code with an opencode-only rendering: Claude reads
  `.claude/skills` only, and opencode 1.18.33 lists whichever of its copies (its own
  trees, `.agents/skills`, `.claude/skills`, `skills.paths`) it parsed last; it skips
  `.claude/skills` only through environment variables.

At user level the first case has one: Codex turns a copy off from `~/.codex/config.toml`
(`Registration.skill_switch`), so its rendering goes to `~/.codex/skills`, which only it
reads, and the shared copy is switched off for it (`_Planner.seen`; the entry is kept in
step with the lockfile by `lifecycle.ancillary`).

The placement is a function of the selected clients as a set: a selection
given in another order (flags, a config's `clients:`, a lockfile's recorded
list) plans the same files. The planner works on the targets and clients in
registry order (`_canonical`), so where two placements score the same (at user
level Windsurf and opencode both write `~/.agents/skills`, and each reads a
copy there), the rendering of the target earliest in the registry keeps the
shared copy.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from upskill.clients import CLIENTS, SELECTABLE_CLIENTS, get, render_target
from upskill.clients.base import SKILL
from upskill.render import OutputFile, Rendering


@dataclass(frozen=True)
class Write:
    """One target's rendering of the skill, put under `tree` (ends with `/`)."""

    tree: str
    target: str
    clients: tuple[str, ...]  # the clients it is written for: the output's owners
    files: tuple[OutputFile, ...]


@dataclass(frozen=True)
class SkillPlan:
    writes: tuple[Write, ...]
    lines: tuple[str, ...]  # one per client that does not see its own rendering once


# Each client's place in the registry: the order ties are broken in.
_RANK = {c: i for i, c in enumerate(SELECTABLE_CLIENTS)}


def own_tree(target: str, home: bool) -> str:
    return get(target).kinds[SKILL].at(home).tree


def _reads(client: str, home: bool) -> tuple[str, ...]:
    """The trees `client` reads skills from in a scope, preferred first."""
    return get(client).skill_trees_at(home)


def _private(client: str, home: bool) -> tuple[str, ...]:
    """Skill trees `client` reads in a scope that no client of another render target
    reads there and no target writes as its own: a copy there reaches this client alone."""
    target = render_target(client)
    owned = {c.kinds[SKILL].at(home).tree for c in CLIENTS if SKILL in c.kinds}
    others = {t for c in CLIENTS if c.render_as != target for t in c.skill_trees_at(home)}
    return tuple(t for t in _reads(client, home) if t not in owned | others)


def _shape(rendering: Rendering, tree: str) -> tuple[str, bytes | object]:
    """What a copy looks like relative to its tree: the entrypoint's path and bytes (the
    resources are the item's own bytes, the same for every target)."""
    first = rendering.files[0]
    return first.path[len(tree) :], first.data


class _Planner:
    """One skill's renderings and readers; `place` tries one choice for the shared trees."""

    def __init__(
        self,
        targets: Mapping[str, Sequence[str]],
        present: Mapping[str, Rendering],
        home: bool,
    ) -> None:
        self.targets = targets
        self.present = present
        self.home = home
        self.trees = {t: own_tree(t, home) for t in present}
        self.shape = {t: _shape(r, self.trees[t]) for t, r in present.items()}
        self.clients = [c for t in present for c in targets[t]]
        by_tree: dict[str, list[str]] = {}
        for t in present:
            by_tree.setdefault(self.trees[t], []).append(t)
        self.shared = {tree: ts for tree, ts in by_tree.items() if len(ts) > 1}

    def options(self) -> list[list[str | None]]:
        """Per shared tree: one target of each distinct rendering there, the one that
        serves the most clients first (on a tie, the one first in registry order), then
        none at all."""
        options: list[list[str | None]] = []
        for ts in self.shared.values():
            groups: dict[object, list[str]] = {}
            for t in ts:
                groups.setdefault(self.shape[t], []).append(t)
            ranked = sorted(
                groups.values(),
                key=lambda g: (-sum(len(self.targets[t]) for t in g), _RANK[g[0]]),
            )
            options.append([g[0] for g in ranked] + [None])
        return options

    def seen(self, client: str, writes: Mapping[str, str]) -> list[str]:
        """The trees whose copy `client` shows, given what is written where (a client
        that shows one copy in no fixed order: each it may show). At user level a client
        with a skill switch shows none of another rendering beside a copy of its own:
        upskill turns those off in its config (`ancillary.wanted`)."""
        off = self.switched(client, writes)
        copies = [t for t in _reads(client, self.home) if t in writes and t not in off]
        spec = get(client)
        return copies[:1] if spec.dedupes and spec.ordered_skills(self.home) else copies

    def switched(self, client: str, writes: Mapping[str, str]) -> list[str]:
        """The trees holding another rendering that `client` is made not to show: at user
        level, beside a copy of its own, when it has a skill switch."""
        if not self.home or not get(client).registration.skill_switch:
            return []
        mine = self.shape[render_target(client)]
        copies = [t for t in _reads(client, self.home) if t in writes]
        if all(self.shape[writes[t]] != mine for t in copies):
            return []
        return [t for t in copies if self.shape[writes[t]] != mine]

    def satisfied(self, client: str, writes: Mapping[str, str]) -> bool:
        got = self.seen(client, writes)
        mine = self.shape[render_target(client)]
        if not got or any(self.shape[writes[tree]] != mine for tree in got):
            return False
        return len(got) == 1 or get(client).dedupes

    def _served(self, target: str, served: Mapping[str, str]) -> bool:
        """It reads an identical copy that stays where it is (not in a shared tree)."""
        return target in served and self.trees.get(served[target]) not in self.shared

    def place(self, choice: Sequence[str | None], served: Mapping[str, str]) -> dict[str, str]:
        """tree -> the target whose rendering it holds, for one choice per shared tree."""
        writes = {
            self.trees[t]: t
            for t in self.present
            if self.trees[t] not in self.shared and not self._served(t, served)
        }
        writes.update(
            {tree: t for tree, t in zip(self.shared, choice, strict=True) if t is not None}
        )
        for client in self.clients:
            if self.satisfied(client, writes):
                continue
            for alt in _private(client, self.home):
                attempt = {**writes, alt: render_target(client)}
                if self.satisfied(client, attempt):
                    writes = attempt
                    break
        return writes

    def score(self, writes: Mapping[str, str]) -> tuple[int, int, int, int]:
        """Fewest clients without their own rendering once, then the fewest copies
        switched off (each an entry in the user's own config), then the most served by
        a shared copy, then the fewest copies."""
        missed = sum(not self.satisfied(c, writes) for c in self.clients)
        switched = sum(len(self.switched(c, writes)) for c in self.clients)
        shared = sum(
            self.satisfied(c, writes) and self.seen(c, writes)[0] in self.shared
            for c in self.clients
        )
        return missed, switched, -shared, len(writes)

    def result(self, key: str, writes: Mapping[str, str]) -> SkillPlan:
        owners: dict[str, list[str]] = {tree: [] for tree in writes}
        for client in self.clients:
            if self.satisfied(client, writes):
                owners[self.seen(client, writes)[0]].append(client)
        out: list[Write] = []
        for tree, target in writes.items():
            own = self.trees[target]
            files = tuple(
                OutputFile(tree + f.path[len(own) :], f.data, f.mode)
                for f in self.present[target].files
            )
            out.append(Write(tree, target, tuple(owners[tree] or self.targets[target]), files))
        lines = [
            self.line(key, c, writes, owners) for c in self.clients if not self.satisfied(c, writes)
        ]
        return SkillPlan(tuple(out), tuple(lines))

    def line(
        self, key: str, client: str, writes: Mapping[str, str], owners: Mapping[str, list[str]]
    ) -> str:
        spec = get(client)
        got = self.seen(client, writes)
        reads = _reads(client, self.home)
        if len(reads) == 1:
            why = f"one copy in {reads[0]} serves every client that reads it"
        elif spec.dedupes and not spec.ordered_skills(self.home):
            why = f"{spec.name} shows one copy from {', '.join(reads)}, not always the same"
        elif spec.dedupes:
            why = f"{spec.name} prefers {got[0] if got else reads[0]} to any tree only it reads"
        else:
            why = f"{spec.name} lists the copy in each of {', '.join(reads)}"
        if not got:
            return f"{key}: {client} does not get it ({why})"
        if len(got) > 1 and spec.dedupes:
            return f"{key}: {client} sees one of the copies in {', '.join(got)} ({why})"
        if len(got) > 1:
            return f"{key}: {client} sees it {len(got)} times, in {', '.join(got)} ({why})"
        readers = ", ".join(owners[got[0]] or self.targets[writes[got[0]]])
        return f"{key}: {client} sees the copy in {got[0]}, rendered for {readers} ({why})"


def _canonical(targets: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    """The targets, and each target's clients, in registry order: every choice below
    that a tie leaves to iteration order then follows the registry, not the order the
    clients were given in."""
    return {
        t: tuple(sorted(targets[t], key=_RANK.__getitem__))
        for t in sorted(targets, key=_RANK.__getitem__)
    }


def plan_skill(
    key: str,
    targets: Mapping[str, Sequence[str]],
    renderings: Mapping[str, Rendering],
    *,
    home: bool,
    served: Mapping[str, str],
) -> SkillPlan | None:
    """The placement of one skill, or None when every target renders it the same (one
    copy per tree then, as `desired` writes it). `served`: targets that write no copy of
    their own because they read another target's identical one."""
    targets = _canonical(targets)
    present = {t: renderings[t] for t in targets if renderings[t].files}
    planner = _Planner(targets, present, home)
    if len(set(planner.shape.values())) <= 1:
        return None
    best: tuple[tuple[int, int, int, int], dict[str, str]] | None = None
    for choice in itertools.product(*planner.options()):
        writes = planner.place(choice, served)
        score = planner.score(writes)
        if best is None or score < best[0]:
            best = (score, writes)
    assert best is not None  # itertools.product of non-empty option lists yields once
    return planner.result(key, best[1])
