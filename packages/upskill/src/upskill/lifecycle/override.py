"""When Codex's rules go to `AGENTS.override.md` instead of `AGENTS.md` (issue 15,
items 3 and 4).

Codex 0.171.0 reads a project's rules from `AGENTS.md`, or from an `AGENTS.override.md`
in the same directory *instead*; Copilot CLI 1.0.102, opencode and most other clients
read `AGENTS.md` and not the override. A rule whose text differs for such a reader (a
`<!-- @copilot -->` block, Copilot's `excludeAgent`) keeps the reader's own copy, so
with Codex's text in `AGENTS.md` the reader gets the rule twice. Moving every Codex
rule to the override removes that second read; `AGENTS.md` keeps only what the other
clients need (`lifecycle.desired.beside_moved`), and goes when nothing is left.

The move is made only where it hides nothing and removes a double read:

- project scope (no other client reads `~/.codex`);
- upskill owns `AGENTS.md` (absent, recorded or its compilation): an override beside a
  team's own `AGENTS.md`, managed block or not, would hide the team's file from Codex;
- the override is absent or upskill's;
- no project setting makes another client read `AGENTS.md` while its own file is the
  team's: Gemini CLI 0.61.0 reads its `GEMINI.md` whatever `context.fileName` lists
  (checked with a turn against the local endpoint: the list `["AGENTS.md"]` adds
  `AGENTS.md`), so beside a Gemini told to read `AGENTS.md` a rule `AGENTS.md` keeps in
  Gemini's text serves it there and the others reach it through its own `GEMINI.md`
  (`lifecycle.desired.beside_moved`). Only a team's own `GEMINI.md` without a managed
  block leaves `AGENTS.md` the one place upskill can give Gemini its rules, where
  Copilot CLI (and every other reader of `AGENTS.md`) reads them too: Codex's text stays
  there, and the install says which rules Copilot reads twice;
- some installed rule is read twice because of Codex's text, or reads differently for
  Codex and another client compiling into `AGENTS.md` (Amp, …: one file holds one
  section per rule): judged from the rule's text for the items of this run, and from
  the lockfile for the others (a reader of `AGENTS.md` with its own copy of a rule
  Codex compiles and no other client compiles into `AGENTS.md`; a rule Codex already
  has in the override beside such a client).

Otherwise Codex's rules are in `AGENTS.md`, and a run after the conditions change
(a team `AGENTS.md` appears, Copilot is dropped, the rule goes) moves them back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from upskill.clients import get
from upskill.clients.base import RULE, Carrier
from upskill.errors import UpskillError
from upskill.fsio import read_contained
from upskill.lifecycle.compiled import Current, Owned, override_files, recorded_in, writable
from upskill.lifecycle.hashing import sha256_bytes
from upskill.state.lockfile import Lockfile, OutputRecord


def allowed(
    current: Iterable[Current], home: bool, configured: Mapping[str, frozenset[str]]
) -> dict[str, str]:
    """Client id -> its override, for the clients whose rules may move there this run."""
    if home:
        return {}
    current = tuple(current)
    owned = {c.path: c.owned for c in current}
    named = _only_reads(configured, writable(current))
    return {
        client: override
        for client, (left, override) in override_files(home).items()
        if owned.get(left, Owned.OURS) is Owned.OURS
        and owned.get(override, Owned.OURS) is Owned.OURS
        and left not in named
    }


def _only_reads(configured: Mapping[str, frozenset[str]], ok: frozenset[str]) -> set[str]:
    """The files named in the settings of a client upskill can give no file of its own
    beside them (a team's own `GEMINI.md` blocks Gemini's): its rules reach it only there."""
    out: set[str] = set()
    for client, names in configured.items():
        where = get(client).kinds.get(RULE)
        if (
            where is None
            or where.carrier is not Carrier.COMPILED
            or where.project.template not in ok
        ):
            out |= names
    return out


def recorded(records: Mapping[str, OutputRecord]) -> dict[str, str]:
    """Client id -> its override, where the lockfile has its rules there (the last run
    moved them)."""
    return recorded_in(records, override_files(False))


def justified_by_records(
    records: Mapping[str, OutputRecord],
    movers: Mapping[str, str],
    skip: frozenset[str],
    imported: frozenset[str] = frozenset(),
    configured: Mapping[str, frozenset[str]] | None = None,
) -> bool:
    """Whether an installed rule outside `skip` (item keys judged from their text) is
    read twice because of a mover's text: the mover compiles it (into its file or its
    override), no other client compiles it into the mover's file, and a client reading
    that file has its own copy elsewhere (Claude Code only where `imported` names the
    file: a `CLAUDE.md` importing it; Gemini where its project settings name it)."""
    named = configured or {}
    table = override_files(False)
    by_item: dict[str, list[tuple[str, str]]] = {}
    for record in records.values():
        for owner in record.owners:
            if owner.item.startswith("rule:") and owner.item not in skip:
                by_item.setdefault(owner.item, []).append((record.path, owner.client))
    for mover in movers:
        left, override = table[mover]
        for places in by_item.values():
            if not any(c == mover and p in (left, override) for p, c in places):
                continue
            if any(p == left and c != mover and _compiles_into(c, left) for p, c in places):
                # Moved beside such a client: its text may differ from the mover's (the
                # sections are not here to compare), so the move stands.
                if any(c == mover and p == override for p, c in places):
                    return True
                continue
            if any(
                c != mover and p not in (left, override)
                and (left in named.get(c, ()) or (left in get(c).reads and (
                    not get(c).registration.imports_agents_md or left in imported)))
                for p, c in places
            ):  # fmt: skip
                return True
    return False


def _compiles_into(client: str, path: str) -> bool:
    where = get(client).kinds.get(RULE)
    return (
        where is not None and where.carrier is Carrier.COMPILED and where.project.template == path
    )


def unwatched(lock: Lockfile) -> bool:
    """Whether an override is recorded beside no recorded `AGENTS.md`: a team file
    appearing there is seen by no output's stat, so only a full run notices it (and
    moves the rules back); the fast path of `update` must not vouch for the state."""
    records = {o.path: o for o in lock.outputs}
    table = override_files(False)
    return any(table[client][0] not in records for client in recorded(records))


def hidden(root: Path, lock: Lockfile) -> list[dict[str, Any]]:
    """`doctor`: an override upskill wrote beside an `AGENTS.md` that is not upskill's
    last write (a team's file, or upskill's edited by hand): the client reads neither
    the file nor the edit. The next `update` moves its rules back."""
    records = {o.path: o for o in lock.outputs}
    out = []
    for client, override in recorded(records).items():
        left = override_files(False)[client][0]
        found, mine = _read(root, left), _read(root, override)
        if found is None or mine is None:
            continue
        record = records.get(left)
        if record is None or sha256_bytes(found) != record.sha256:
            out.append({"client": client, "path": left, "hidden_by": override})
    return out


def _read(root: Path, path: str) -> bytes | None:
    try:
        return read_contained(root / path, within=root)
    except (OSError, UpskillError):  # absent, unreadable or refused: nothing hidden
        return None
