"""Undoable edits to the files upskill shares with the team (`lifecycle.ancillary`).

upskill inserts members in a team's file: VS Code's instructions folder and a tree
it is told not to read in `.vscode/settings.json` (`lifecycle.agenttrees`), the rule
glob in `opencode.json`'s `instructions`, the `@AGENTS.md` import of a `CLAUDE.md` it
creates. The file is the team's, so taking a member back must give the team exactly
the bytes they had, or no file at all when upskill created it. The lockfile keeps
what upskill's write replaced (`state.lockfile.EditRecord`): the smallest span of
text that differs from the team's own bytes, which for insertions is empty, and the
members it added. Each run starts from the team's bytes and adds the members wanted
now (`settle`), so members added in different runs are taken back in any order. When
the file has changed since upskill's write, the record no longer lines up with it:
then only the members upskill added are cut, as text, and every other change the
team made stays; a file upskill created that holds nothing else then (`bare`) is
removed. A member that cannot be cut (a file written whole) keeps the edited file as
it is, and the run says so (`Settled.edited`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from upskill.lifecycle.hashing import sha256_bytes
from upskill.state.lockfile import EditRecord

# (key, member, value): `"key": {"member": value}`, or with member None `value` an item of
# the array `key` (a file written whole: a line of it, key `lines`).
Member = tuple[str, str | None, bool | str]


def record(
    path: str, old: bytes | None, new: bytes, members: tuple[Member, ...] | None = None
) -> EditRecord:
    """What upskill's write of `new` over `old` (None: absent) replaced."""
    digest = sha256_bytes(new)
    if old is None:
        return EditRecord(path, digest, created=True, members=members)
    before, after = old.decode("utf-8"), new.decode("utf-8")  # both were parsed as UTF-8
    start = 0
    limit = min(len(before), len(after))
    while start < limit and before[start] == after[start]:
        start += 1
    end = 0
    while end < limit - start and before[-1 - end] == after[-1 - end]:
        end += 1
    return EditRecord(
        path,
        digest,
        at=start,
        length=len(after) - start - end,
        was=before[start : len(before) - end],
        members=members,
    )


@dataclass(frozen=True)
class Undo:
    """The file's content after undoing: `data` None means the file is removed, when it
    still holds exactly upskill's write (`expected`, its sha256); `keep` nothing to do."""

    data: bytes | None
    expected: str = ""
    keep: bool = False


def never_bare(data: bytes) -> bool:
    return False


def only_empty(value: object) -> bool:
    """Whether a parsed config holds nothing but empty tables and arrays: a file upskill
    created that is left so once its members are cut holds nothing of the team's."""
    if type(value) is dict:
        return all(only_empty(v) for v in value.values())
    return type(value) is list and not value


def undo(
    edit: EditRecord,
    current: bytes | None,
    apply: Callable[[bytes | None], bytes | None],
    cut: Callable[[bytes], bytes | None],
    bare: Callable[[bytes], bool] = never_bare,
) -> Undo:
    """Undo `edit` on the file's `current` bytes. The record is data from a lockfile a
    repository may carry, so the bytes it gives back are used only when `apply`
    (upskill's edit) turns them into `current` again: the undo then is exactly that
    edit's inverse. Otherwise (a file changed since, a record that does not fit) `cut`
    removes only upskill's member (None: nothing to change); a file upskill created
    that then holds nothing of the team's (`bare`) is removed."""
    if current is None:
        return Undo(None, keep=True)
    if sha256_bytes(current) == edit.sha256:
        if edit.created and apply(None) == current:
            return Undo(None, expected=edit.sha256)
        if not edit.created:
            text = current.decode("utf-8", errors="replace")
            before = (text[: edit.at] + edit.was + text[edit.at + edit.length :]).encode()
            if apply(before) == current:
                return Undo(before)
    data = cut(current)
    if edit.created and bare(current if data is None else data):
        return Undo(None, expected=sha256_bytes(current))
    return Undo(data, keep=data is None)


@dataclass(frozen=True)
class Settled:
    """What a run does to a shared file: write `data`, remove it (`data` None, while it
    holds `expected`), or nothing (`keep`); `record` is the lock's record afterwards.
    `edited`: kept as it is although upskill no longer needs its member there, because
    the file changed since upskill wrote it and the member cannot be cut."""

    data: bytes | None
    record: EditRecord | None
    expected: str = ""
    keep: bool = False
    edited: bool = False


ABSENT = object()  # `value` of a member the file does not have
# The `sha256` of a record of members upskill added in bytes it never recorded (a
# lockfile from before it recorded that file): no file has it, so only the members
# are ever cut, and the file is never removed.
UNSEEN = "unseen"
Edit = Callable[[tuple[Member, ...]], Callable[[bytes | None], bytes | None]]


def settle(
    path: str,
    current: bytes | None,
    edit: EditRecord | None,
    ours: tuple[Member, ...],
    wanted: tuple[Member, ...],
    *,
    put: Edit,
    take: Edit,
    value: Callable[[bytes, Member], object],
    bare: Callable[[bytes], bool] = never_bare,
) -> Settled:
    """Make the file hold `wanted`, given `ours` (the members `edit` says upskill added).
    A wanted member the team's bytes already have, whatever its value, is the team's:
    it is never changed nor recorded. `put(members)` adds members to bytes (None: an
    absent file; a file it leaves as it is gets no record), `take(members)` cuts them as
    text (None: none there), `value` reads one (`ABSENT`), `bare` says a file holds no
    content but upskill's members, which `undo` then removes. A file that already holds
    what is wanted is not rewritten."""
    gone = [m for m in ours if m not in wanted]
    if current is not None and (edit is not None or wanted):
        here = all(value(current, m) == m[2] for m in wanted)
        if here and all(value(current, m) is ABSENT for m in gone):
            kept = tuple(m for m in ours if m in wanted)
            same = dataclasses.replace(edit, members=kept) if kept and edit else None
            return Settled(None, same, keep=True)
    base = current
    edited = False
    if edit is not None:
        done = undo(edit, current, put(ours), take(ours), bare)
        base = current if done.keep else done.data
        edited = (
            current is not None and done.keep and any(value(current, m) is not ABSENT for m in gone)
        )
    add = tuple(m for m in wanted if base is None or value(base, m) is ABSENT)
    target = put(add)(base) if add else base
    new = record(path, base, target, add) if add and target is not None and target != base else None
    if target == current:
        return Settled(None, new, keep=True, edited=edited)
    if target is None:
        assert current is not None  # target differs from it
        return Settled(None, None, expected=sha256_bytes(current))
    return Settled(target, new)
