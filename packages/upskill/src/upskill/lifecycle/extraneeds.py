"""What the extra files must hold for what is installed, and what they lack now.

A client reads upskill's rules only through its extra file (`lifecycle.ancillary`):
opencode through the glob in `opencode.json`'s `instructions`, VS Code through the
folder registered in `.vscode/settings.json`, Claude Code through `CLAUDE.md`'s
`@AGENTS.md`. A user who deletes such a member, or the file, silently takes the rules
away from that client. The engine settles each file to `needed` on every run and
`doctor` reports what the files lack (`missing`), so both ask one question, from the
lockfile and the disk: the members wanted for what is installed (`ancillary.wanted`),
a memory file's import only while `AGENTS.md` is a file upskill does not compile, and
an agent tree hidden from a client while it holds nothing but copies
(`lifecycle.agenttrees`). Presence is read through the file's `ancillary.shape`, so
every kind of file is checked the way the engine edits it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from upskill.errors import UpskillError
from upskill.lifecycle import agenttrees as at
from upskill.lifecycle import compiled as comp
from upskill.lifecycle.ancillary import AGENTS_MD, IMPORTERS, installed, shape, wanted
from upskill.lifecycle.edits import ABSENT, Member
from upskill.lifecycle.extrafiles import Entry
from upskill.state.lockfile import EditRecord, Lockfile

FILE_MISSING = "file-missing"
ENTRY_MISSING = "entry-missing"
UNREADABLE = "unreadable"


def upskill_compiled(current: Iterable[comp.Current]) -> frozenset[str]:
    """The instructions files upskill compiles whole: nothing imports them (Claude reads
    its own copies of those rules)."""
    return frozenset(c.path for c in current if c.owned is comp.Owned.OURS)


def needed(
    root: Path,
    lock: Lockfile,
    *,
    home: bool,
    compiled: frozenset[str],
    on_disk: Mapping[str, set[str]] | None = None,
) -> dict[str, tuple[Member, ...]]:
    """The members each extra file must hold once `lock` is what is installed in the
    scope at `root`. `compiled`: the files upskill compiles (`upskill_compiled`); `on_disk`: the
    agent files in each hideable tree once the run is done (`agenttrees.disk`; None:
    as they are now)."""
    imports = AGENTS_MD not in compiled and (root / AGENTS_MD).is_file()
    want = wanted(installed(lock, home=home), home=home, imports=imports)
    if not home:
        trees = at.disk(root) if on_disk is None else on_disk
        for hide in at.to_hide(lock.outputs, trees):
            want[hide.settings] = (*want.get(hide.settings, ()), hide.member)
    return want


def team_memory(path: str, edit: EditRecord | None, present: bool, *, installing: bool) -> bool:
    """Whether a run leaves the memory file at `path` alone: one upskill did not create
    (no record) is the team's when it exists, and only an install creates one."""
    return path in IMPORTERS.values() and edit is None and (present or not installing)


@dataclass(frozen=True)
class Missing:
    """An extra file lacking members upskill needs there: the file is absent
    (`FILE_MISSING`), holds some of them but not these (`ENTRY_MISSING`), or cannot be
    read or parsed (`UNREADABLE`, `detail` saying why; `entries` are all it needs)."""

    path: str
    reason: str
    entries: tuple[Entry, ...]
    detail: str = ""


def missing(
    root: Path, lock: Lockfile, *, home: bool, read: Callable[[str], bytes | None]
) -> list[Missing]:
    """For `doctor`: per extra file, in path order, the members `needed` there that it
    does not hold (`read`: a file's bytes by scope-relative path, None when absent). A
    member the file holds with another value is the team's, as the engine keeps it. A
    team's own memory file is never reported: upskill never writes it."""
    records = {o.path: o for o in lock.outputs}
    compiled = upskill_compiled(comp.scan(home, _quiet(read), records))
    edits = {e.path: e for e in lock.edits}
    found = []
    for path, members in sorted(needed(root, lock, home=home, compiled=compiled).items()):
        form = shape(path)
        entries = tuple(form.entry(m) for m in members)
        try:
            data = read(path)
            if team_memory(path, edits.get(path), data is not None, installing=True):
                continue
            if data is None:
                found.append(Missing(path, FILE_MISSING, entries))
                continue
            lacking = tuple(form.entry(m) for m in members if form.value(data, m) is ABSENT)
        except UpskillError as exc:
            found.append(Missing(path, UNREADABLE, entries, _why(exc, root, path)))
            continue
        except OSError as exc:
            found.append(Missing(path, UNREADABLE, entries, exc.strerror or str(exc)))
            continue
        if lacking:
            found.append(Missing(path, ENTRY_MISSING, lacking))
    return found


def _quiet(read: Callable[[str], bytes | None]) -> Callable[[str], bytes | None]:
    """`read` with a file it cannot read or refuses taken as absent: a compiled file
    doctor cannot read is not one it knows upskill compiled."""

    def quiet(path: str) -> bytes | None:
        try:
            return read(path)
        except (OSError, UpskillError):
            return None

    return quiet


def _why(exc: UpskillError, root: Path, path: str) -> str:
    """The error's message; a place on the way to the file (a symlinked directory) is
    named, relative to the scope."""
    if exc.path is None or exc.path in (Path(path), root / path):
        return exc.message
    return exc.shown_from(root)
