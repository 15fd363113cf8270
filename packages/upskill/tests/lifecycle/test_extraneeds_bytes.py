"""`extraneeds.missing` over any bytes in the extra files: one entry per file, never an
exception, and a file holding the member is never reported (`doctor` must not crash on
what a user or a repository put there)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from upskill.lifecycle.extraneeds import ENTRY_MISSING, FILE_MISSING, UNREADABLE, missing
from upskill.state.lockfile import ItemRecord, Lockfile, OutputRecord, Owner

GLOB = ".agents/rules/**/RULE.md"
FOLDER = b'"chat.instructionsFilesLocations": {".github/instructions": true}'
# One rule installed for opencode and VS Code in their own trees.
LOCK = Lockfile(
    items=(ItemRecord("rule", "style", "local:/r"),),
    outputs=(
        OutputRecord(
            ".agents/rules/style/RULE.md", "0" * 64, 1, (Owner("rule:style", "opencode"),)
        ),
        OutputRecord(
            ".github/instructions/style.instructions.md",
            "0" * 64,
            1,
            (Owner("rule:style", "vscode"),),
        ),
    ),
)
FILES = ("opencode.json", ".vscode/settings.json")
CLEAN = {
    "opencode.json": b'{"instructions": ["' + GLOB.encode() + b'"]}',
    ".vscode/settings.json": b"{\n  // ours\n  " + FOLDER + b",\n}\n",
}
JSONISH = st.one_of(
    st.binary(max_size=64),
    st.text(alphabet='{}[]":, \n/*\\tfrue0instructions.agent', max_size=64).map(str.encode),
    st.sampled_from([*CLEAN.values(), b'{"instructions": "x"}', b"[" * 5000]),
)


def test_the_lock_needs_both_files() -> None:
    found = missing(Path("/nonexistent"), LOCK, home=False, read=lambda p: None)
    assert [(m.path, m.reason) for m in found] == [
        (".vscode/settings.json", FILE_MISSING),
        ("opencode.json", FILE_MISSING),
    ]
    assert missing(Path("/nonexistent"), LOCK, home=False, read=CLEAN.get) == []


@given(st.fixed_dictionaries({p: st.none() | JSONISH for p in FILES}))
def test_any_bytes_give_one_entry_per_file_at_most(files: dict[str, bytes | None]) -> None:
    found = missing(Path("/nonexistent"), LOCK, home=False, read=files.get)
    assert [m.path for m in found] == sorted({m.path for m in found})
    for m in found:
        expected = {FILE_MISSING} if files[m.path] is None else {ENTRY_MISSING, UNREADABLE}
        assert m.reason in expected
        assert m.entries and (m.detail != "") == (m.reason == UNREADABLE)
        assert files[m.path] != CLEAN[m.path]  # a file holding the member is fine
