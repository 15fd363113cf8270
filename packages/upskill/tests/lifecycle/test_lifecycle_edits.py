"""Undoable edits to a team's settings file (`lifecycle.edits`): taking upskill's
registration back gives the team exactly the bytes they had."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from upskill.clients import get
from upskill.lifecycle.ancillary import settings_cut, settings_flag
from upskill.lifecycle.edits import Undo, record, undo
from upskill.state.lockfile import (
    EditRecord,
    Lockfile,
    LockfileError,
    parse_lockfile,
    serialise_lockfile,
)

REG = get("vscode").registration
PATH, (KEY, MEMBER) = ".vscode/settings.json", REG.settings_key
flag = settings_flag(PATH, KEY, MEMBER)
cut = settings_cut(PATH, KEY, MEMBER)

scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
members = st.dictionaries(st.text(max_size=10), values, max_size=4)


@given(
    members,
    st.one_of(st.none(), st.dictionaries(st.text(max_size=12), st.booleans(), max_size=3)),
    st.sampled_from([None, 2, 4, "\t"]),
    st.booleans(),
)
def test_undo_gives_back_the_bytes_before(
    other: dict[str, object], locations: dict[str, bool] | None, indent: object, bom: bool
) -> None:
    value = dict(other)
    value.pop(KEY, None)
    if locations is not None:
        value[KEY] = locations
    old = (b"\xef\xbb\xbf" if bom else b"") + json.dumps(value, indent=indent).encode() + b"\n"
    new = flag(old)
    if new is None:  # the member was there: nothing written, nothing to take back
        assert locations is not None and MEMBER in locations
        return
    edit = record(PATH, old, new)
    assert undo(edit, new, flag, cut) == Undo(old)


def test_created_file_is_removed_while_unchanged() -> None:
    new = flag(None)
    assert new is not None
    edit = record(PATH, None, new)
    assert edit.created
    assert undo(edit, new, flag, cut) == Undo(None, expected=edit.sha256)
    assert undo(edit, None, flag, cut) == Undo(None, keep=True)


def test_a_file_changed_since_loses_only_the_member() -> None:
    old = b'{\n  "a": 1\n}\n'
    new = flag(old)
    assert new is not None
    edit = record(PATH, old, new)
    changed = new.replace(b'"a": 1', b'"a": 2')
    assert undo(edit, changed, flag, cut) == Undo(
        b'{\n  "a": 2,\n  "chat.instructionsFilesLocations": {}\n}\n'
    )
    gone = b'{"a": 2}\n'  # the team removed the member itself: nothing to do
    assert undo(edit, gone, flag, cut) == Undo(None, keep=True)


def test_a_record_that_does_not_fit_only_cuts() -> None:
    """A lockfile is data a repository carries: a record whose bytes would not turn
    back into the file by upskill's own edit is not used (the file is not deleted, nor
    written with text the record supplies)."""
    new = flag(b'{"a": 1}\n')
    assert new is not None
    digest = record(PATH, None, new).sha256
    expected = Undo(b'{"a": 1, "chat.instructionsFilesLocations": {}}\n')
    assert undo(EditRecord(PATH, digest, created=True), new, flag, cut) == expected
    planted = EditRecord(PATH, digest, at=0, length=len(new), was='{"evil": 1}\n')
    assert undo(planted, new, flag, cut) == expected


def test_lockfile_round_trip_and_bad_records(tmp_path: Path) -> None:
    lock = Lockfile(
        edits=(
            EditRecord(PATH, "ab" * 32, at=3, length=9, was="é\n"),
            EditRecord("a.json", "cd" * 32, created=True),
        )
    )
    data = serialise_lockfile(lock)
    assert json.loads(data)["edits"] == [  # by path
        {"path": PATH, "sha256": "ab" * 32, "at": 3, "length": 9, "was": "é\n"},
        {"path": "a.json", "sha256": "cd" * 32, "created": True},
    ]
    assert parse_lockfile(data, tmp_path / "l") == lock.normalised()
    for bad, says in (
        ({"path": PATH, "sha256": "x"}, "needs `created: true`"),
        ({"path": "../x", "sha256": "x", "created": True}, "must be relative"),
        ({"path": PATH, "sha256": "x", "at": -1, "length": 0, "was": ""}, "non-negative"),
    ):
        raw = json.dumps({"schema": 1, "items": [], "edits": [bad]}).encode()
        with pytest.raises(LockfileError, match=says):
            parse_lockfile(raw, tmp_path / "l")
