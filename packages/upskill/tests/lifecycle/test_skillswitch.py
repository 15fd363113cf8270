"""The entries turning a skill copy off in Codex's user config (`lifecycle.skillswitch`),
through the mechanism every shared file goes through (`lifecycle.edits.settle`): the
user's bytes come back exactly, and a file edited since keeps every change of theirs."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from upskill.lifecycle.ancillary import can_add, shape
from upskill.lifecycle.edits import ABSENT, Member, Settled, settle
from upskill.lifecycle.skillswitch import SwitchError

PATH = ".codex/config.toml"
FORM = shape(PATH)
KEY = "skills.config"

BLOCKS = [
    "# mine\n",
    'model = "o3"\n',
    "\n",
    '[projects."/w"]\ntrust_level = "trusted"\n',
    '[mcp_servers.x]\ncommand = "x"\nargs = [\n  "a",\n  "[b]",\n]\n',
    '[[skills.config]]\npath = "/abs/other/SKILL.md"\nenabled = true\n',
    "[[skills.config]] # theirs\npath = '~/.agents/skills/team/SKILL.md'\nenabled = false\n",
    "[skills]\nfoo = 1\n",
    # a header inside a string is no entry
    'notes = """\n[[skills.config]]\npath = "~/.agents/skills/aa/SKILL.md"\n"""\n',
]
configs = st.builds(
    lambda blocks, newline: "".join(blocks) if newline else "".join(blocks).rstrip("\n"),
    st.lists(st.sampled_from(BLOCKS), max_size=6),
    st.booleans(),
)
names = st.lists(st.sampled_from(["aa", "dx", "b-2"]), min_size=1, max_size=3, unique=True)


def _parses(text: str) -> dict[str, Any] | None:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


def _members(skills: list[str]) -> tuple[Member, ...]:
    return tuple((KEY, None, f"~/.agents/skills/{n}/SKILL.md") for n in skills)


def _settle(current: bytes | None, settled: Settled | None, wanted: tuple[Member, ...]) -> Settled:
    edit = None if settled is None else settled.record
    ours = () if edit is None or edit.members is None else edit.members
    return settle(
        PATH, current, edit, ours, wanted, put=FORM.put, take=FORM.take, value=FORM.value,
        bare=FORM.bare,
    )  # fmt: skip


def _after(current: bytes | None, done: Settled) -> bytes | None:
    return current if done.keep else done.data


def _entries(value: dict[str, Any]) -> list[Any]:
    return list(value.get("skills", {}).get("config", []))


@given(configs, st.booleans(), names)
def test_taking_the_entries_back_gives_the_users_bytes(
    text: str, absent: bool, skills: list[str]
) -> None:
    assume(_parses(text) is not None)
    before = None if absent else text.encode()
    wanted = _members(skills)
    added = _settle(before, None, wanted)
    after = _after(before, added)
    assert after is not None
    value = tomllib.loads(after.decode())
    theirs = _entries(_parses(text) or {}) if before is not None else []
    paths = {e.get("path") for e in theirs}
    assert _entries(value) == theirs + [
        {"path": m[2], "enabled": False} for m in wanted if m[2] not in paths
    ]
    assert all(FORM.value(after, m) == m[2] for m in wanted)
    taken = _settle(after, added, ())
    assert _after(after, taken) == before


@given(configs, names, st.sampled_from(BLOCKS[:5]))
def test_an_edited_file_keeps_the_users_changes(text: str, skills: list[str], theirs: str) -> None:
    assume(_parses(text) is not None and text.endswith("\n"))
    before = text.encode()
    added = _settle(before, None, _members(skills))
    after = _after(before, added)
    assert after is not None
    # A table of theirs goes at the end; a key or comment at the top, where it stays
    # outside upskill's entry.
    table = theirs.startswith("[")
    edited = after + theirs.encode() if table else theirs.encode() + after
    assume(_parses(edited.decode()) is not None)
    done = _after(edited, _settle(edited, added, ()))
    assert done is not None
    expected = _parses(text + theirs if table else theirs + text)
    assert tomllib.loads(done.decode()) == expected


def test_entries_go_after_the_last_line_and_a_blank_one() -> None:
    put = FORM.put(_members(["dx"]))
    entry = '[[skills.config]]\npath = "~/.agents/skills/dx/SKILL.md"\nenabled = false\n'
    assert put(None) == entry.encode()
    assert put(b"") == entry.encode()
    assert put(b'model = "o3"') == b'model = "o3"\n\n' + entry.encode()
    assert put(b'model = "o3"\n') == b'model = "o3"\n\n' + entry.encode()


def test_the_users_own_entry_for_the_path_is_theirs() -> None:
    # Whatever it says: upskill neither adds a second one nor takes theirs back.
    theirs = b"[[skills.config]]\npath = '~/.agents/skills/dx/SKILL.md'\nenabled = true\n"
    (member,) = _members(["dx"])
    assert FORM.value(theirs, member) == member[2]
    done = _settle(theirs, None, (member,))
    assert done.keep and done.record is None


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (b"model = \n", "invalid TOML"),
        (b"\xff = 1\n", "not UTF-8"),
        (b"skills = { config = [] }\n", "cannot append an entry to `skills.config`"),
        (b"[skills]\nconfig = [1]\n", "`skills.config` is not an array of tables"),
        (b"skills = []\n", "`skills` is not a table"),
    ],
)
def test_a_file_upskill_cannot_extend_is_an_error_naming_it(text: bytes, problem: str) -> None:
    with pytest.raises(SwitchError) as caught:
        _settle(text, None, _members(["dx"]))
    assert problem in caught.value.message and str(caught.value.path) == PATH


def test_an_entry_reformatted_to_hold_more_cannot_be_cut() -> None:
    # The user put a setting of theirs inside upskill's entry: cutting its lines would
    # take theirs too, so nothing is cut.
    text = b'[[skills.config]]\npath = "~/.agents/skills/dx/SKILL.md"\nenabled = false\nx = 1\n'
    assert FORM.take(_members(["dx"]))(text) is None


def test_a_lockfile_names_only_entries_upskill_adds_and_only_at_user_level() -> None:
    ok: Member = (KEY, None, "~/.codex/skills/dx/SKILL.md")
    assert can_add(PATH, ok, home=True)
    assert not can_add(PATH, ok, home=False)
    for bad in [
        (KEY, None, "~/.agents/skills/../../.ssh/SKILL.md"),
        (KEY, None, "~/.claude/skills/dx/SKILL.md"),  # Codex does not read it
        (KEY, None, "/abs/.agents/skills/dx/SKILL.md"),
        (KEY, None, "~/.agents/skills/dx/other.md"),
        ("mcp_servers", None, "~/.agents/skills/dx/SKILL.md"),
        (KEY, "path", True),
    ]:
        assert not can_add(PATH, bad, home=True), bad
    assert FORM.value(b"", ok) is ABSENT
