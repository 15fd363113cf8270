"""Undoable edits to a team's settings file (`lifecycle.edits`): taking upskill's
registration back gives the team exactly the bytes they had."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from upskill.clients import get
from upskill.lifecycle.ancillary import (
    legacy_members,
    member_value,
    put_members,
    setting_value,
    settings_cut,
    settings_member,
    take_members,
)
from upskill.lifecycle.edits import ABSENT, Settled, Undo, record, settle, undo
from upskill.lifecycle.hashing import sha256_bytes
from upskill.state.lockfile import (
    EditRecord,
    Lockfile,
    LockfileError,
    parse_lockfile,
    serialise_lockfile,
)

REG = get("vscode").registration
PATH, (KEY, MEMBER) = ".vscode/settings.json", REG.settings_key
flag = settings_member(PATH, KEY, MEMBER, True)
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


# Several members in one file, added and taken back over runs (`edits.settle`): VS Code's
# instructions folder, and Claude's agents tree it is told to skip (lifecycle.agenttrees).
SKIP = ("chat.agentFilesLocations", ".claude/agents", False)
FOLDER = (KEY, MEMBER, True)


def _settle(current: bytes | None, edit: EditRecord | None, wanted: tuple) -> Settled:  # type: ignore[type-arg]
    ours = () if edit is None else edit.members or legacy_members(PATH)
    return settle(
        PATH,
        current,
        edit,
        ours,
        wanted,
        put=put_members(PATH),
        take=take_members(PATH),
        value=member_value(PATH),
    )


def _member(data: bytes | None, key: str, member: str) -> object:
    return ABSENT if data is None else setting_value(data, PATH, key, member)


@given(
    members,
    st.dictionaries(
        st.sampled_from([KEY, SKIP[0]]),
        st.dictionaries(st.sampled_from([MEMBER, SKIP[1], "docs"]), st.booleans(), max_size=2),
        max_size=2,
    ),
    st.sampled_from([None, 2, "\t"]),
    st.booleans(),
    st.booleans(),
    st.lists(st.sampled_from([(), (FOLDER,), (SKIP,), (FOLDER, SKIP), (SKIP, FOLDER)]), max_size=5),
)
def test_runs_keep_the_teams_bytes(
    other: dict[str, object],
    locations: dict[str, dict[str, bool]],
    indent: object,
    bom: bool,
    absent: bool,
    runs: list[tuple],  # type: ignore[type-arg]
) -> None:
    value = {k: v for k, v in other.items() if k not in (KEY, SKIP[0])} | locations
    team = (b"\xef\xbb\xbf" if bom else b"") + json.dumps(value, indent=indent).encode() + b"\n"
    original = None if absent else team
    current, edit = original, None
    for wanted in [*runs, ()]:
        done = _settle(current, edit, wanted)
        if not done.keep:
            assert done.data is not None or done.expected == sha256_bytes(current or b"")
            current = done.data
        edit = done.record
        if edit is not None:  # the record survives the lockfile, and names no team member
            assert all(_member(original, k, m) is ABSENT for k, m, _ in edit.members or ())
            lock = parse_lockfile(serialise_lockfile(Lockfile(edits=(edit,))), Path("l"))
            assert lock.edits == (edit,)
        for key, member, want in (FOLDER, SKIP):
            theirs = _member(original, key, member)
            if theirs is not ABSENT:  # the team's own: never changed
                assert _member(current, key, member) == theirs
            elif (key, member, want) in wanted:
                assert _member(current, key, member) is want
            else:
                assert _member(current, key, member) is ABSENT
        assert _settle(current, edit, wanted) == Settled(None, edit, keep=True)  # a no-op
    assert current == original
    assert edit is None


def test_a_legacy_record_takes_back_the_folder_only() -> None:
    """A record from before `members` added the registration alone."""
    old = b'{\n  "a": 1\n}\n'
    new = flag(old)
    assert new is not None
    legacy = record(PATH, old, new)  # no members
    both = _settle(new, legacy, (FOLDER, SKIP))
    assert both.data == (
        b'{\n  "a": 1,\n  "chat.instructionsFilesLocations": {\n    ".github/instructions": true\n'
        b'  },\n  "chat.agentFilesLocations": {\n    ".claude/agents": false\n  }\n}\n'
    )
    assert both.record is not None and both.record.members == (FOLDER, SKIP)
    assert _settle(new, legacy, ()) == Settled(old, None)


def test_members_in_the_lockfile(tmp_path: Path) -> None:
    lock = Lockfile(edits=(EditRecord(PATH, "ab" * 32, created=True, members=(FOLDER, SKIP)),))
    data = serialise_lockfile(lock)
    assert json.loads(data)["edits"] == [
        {
            "path": PATH,
            "sha256": "ab" * 32,
            "created": True,
            "members": [list(FOLDER), list(SKIP)],
        }
    ]
    assert parse_lockfile(data, tmp_path / "l") == lock
    for bad in ([["a", "b"]], [["a", "", True]], [["a", "b", 1]], {"a": 1}):
        raw = {"path": PATH, "sha256": "x", "created": True, "members": bad}
        text = json.dumps({"schema": 1, "items": [], "edits": [raw]}).encode()
        with pytest.raises(LockfileError, match="`members` must hold"):
            parse_lockfile(text, tmp_path / "l")


def test_a_file_changed_between_runs_keeps_the_change() -> None:
    """The team edits the file after upskill's write: the members still go, as text, and
    the objects that held them stay (the team may have had them: one is left empty)."""
    done = _settle(b'{\n  "a": 1\n}\n', None, (FOLDER, SKIP))
    assert done.data is not None and done.record is not None
    changed = done.data.replace(b'"a": 1', b'"a": 2')
    narrowed = _settle(changed, done.record, (FOLDER,))  # Claude's tree read again
    assert narrowed.data == (
        b'{\n  "a": 2,\n  "chat.instructionsFilesLocations": {\n'
        b'    ".github/instructions": true\n  },\n  "chat.agentFilesLocations": {}\n}\n'
    )
    assert narrowed.record is not None and narrowed.record.members == (FOLDER,)
    empty = (
        b'{\n  "a": 2,\n  "chat.instructionsFilesLocations": {},\n'
        b'  "chat.agentFilesLocations": {}\n}\n'
    )
    assert _settle(narrowed.data, narrowed.record, ()) == Settled(empty, None)


def test_array_items_are_listed_apart_in_the_lockfile(tmp_path: Path) -> None:
    """An array item upskill added (`opencode.json`'s rule glob, `CLAUDE.md`'s import) is
    stored as `listed` [key, item], so an upskill that predates it reads `members` alone;
    a record of a file upskill needs and added nothing to keeps `members: []`."""
    glob = ("instructions", None, ".agents/rules/**/RULE.md")
    created = EditRecord("opencode.json", "ab" * 32, created=True, members=(glob,))
    nothing = EditRecord("CLAUDE.md", "cd" * 32, members=())
    lock = Lockfile(edits=(nothing, created))  # by path, as written
    data = serialise_lockfile(lock)
    assert json.loads(data)["edits"] == [
        {"path": "CLAUDE.md", "sha256": "cd" * 32, "at": 0, "length": 0, "was": "", "members": []},
        {
            "path": "opencode.json",
            "sha256": "ab" * 32,
            "created": True,
            "members": [],
            "listed": [["instructions", ".agents/rules/**/RULE.md"]],
        },
    ]
    assert parse_lockfile(data, tmp_path / "l") == lock
    for bad in ([["a"]], [["a", 1]], [[None, "b"]], {"a": "b"}):
        raw = {"path": PATH, "sha256": "x", "created": True, "listed": bad}
        text = json.dumps({"schema": 1, "items": [], "edits": [raw]}).encode()
        with pytest.raises(LockfileError, match="`listed` must hold"):
            parse_lockfile(text, tmp_path / "l")
