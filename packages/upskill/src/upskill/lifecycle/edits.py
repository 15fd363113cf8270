"""Undoable edits to a file upskill does not own (VS Code's `.vscode/settings.json`).

upskill registers its instructions folder in a team's settings file by inserting one
member; the file is the team's, so removing the last rule that needed the member must
give the team back exactly the bytes they had, or no file at all when upskill created
it. The lockfile keeps what the edit replaced (`state.lockfile.EditRecord`): the
smallest span of text that differs, which for an insertion is empty. When the file has
changed since upskill's write, the record no longer lines up with it: then only the
member upskill added is cut, as text, and every other change the team made stays.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from upskill.lifecycle.hashing import sha256_bytes
from upskill.state.lockfile import EditRecord


def record(path: str, old: bytes | None, new: bytes) -> EditRecord:
    """What upskill's write of `new` over `old` (None: absent) replaced."""
    digest = sha256_bytes(new)
    if old is None:
        return EditRecord(path, digest, created=True)
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
    )


@dataclass(frozen=True)
class Undo:
    """The file's content after undoing: `data` None means the file is removed, when it
    still holds exactly upskill's write (`expected`, its sha256); `keep` nothing to do."""

    data: bytes | None
    expected: str = ""
    keep: bool = False


def undo(
    edit: EditRecord,
    current: bytes | None,
    apply: Callable[[bytes | None], bytes | None],
    cut: Callable[[bytes], bytes | None],
) -> Undo:
    """Undo `edit` on the file's `current` bytes. The record is data from a lockfile a
    repository may carry, so the bytes it gives back are used only when `apply`
    (upskill's edit) turns them into `current` again: the undo then is exactly that
    edit's inverse. Otherwise (a file changed since, a record that does not fit) `cut`
    removes only upskill's member (None: nothing to change)."""
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
    return Undo(data, keep=data is None)
