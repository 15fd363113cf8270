"""`lifecycle.compiled` fronts: the file a client reads that imports its compiled file
(Gemini CLI's `GEMINI.md` -> `.gemini/upskill.md`), owned and assembled like one."""

from __future__ import annotations

import hashlib

from upskill.lifecycle.compiled import (
    Current,
    Owned,
    assemble,
    compiled_paths,
    fronts,
    import_line,
    scan,
    writable,
)
from upskill.lifecycle.desired import Section
from upskill.render.compiled import compile_document
from upskill.state.lockfile import OutputRecord, Owner

TARGET = ".gemini/upskill.md"
LINE = b"@.gemini/upskill.md\n"
OWNER = Owner("rule:style", "gemini")
SECTION = Section(TARGET, "style", b"Use four spaces.\n", (OWNER,))
BLOCK = b"<!-- upskill:begin -->\n<!-- upskill:end -->\n"


def _record(path: str, data: bytes) -> OutputRecord:
    return OutputRecord(path, hashlib.sha256(data).hexdigest(), len(data), (OWNER,))


def test_the_registry_gives_gemini_a_front_in_projects_only() -> None:
    assert fronts(home=False) == {"GEMINI.md": TARGET}
    assert fronts(home=True) == {}
    assert {"GEMINI.md", TARGET, "AGENTS.md"} <= set(compiled_paths(home=False))
    assert import_line(TARGET) == LINE


def test_who_owns_a_front() -> None:
    assert Current.of("GEMINI.md", None, None, TARGET).owned is Owned.OURS
    assert Current.of("GEMINI.md", LINE, None, TARGET).owned is Owned.OURS
    assert Current.of("GEMINI.md", b"# Ours\n", None, TARGET).owned is Owned.TEAM
    recorded = _record("GEMINI.md", b"# edited\n")
    assert Current.of("GEMINI.md", b"# edited\n", recorded, TARGET).owned is Owned.OURS
    assert Current.of("GEMINI.md", b"# T\n" + BLOCK, None, TARGET).owned is Owned.BLOCK
    # The import line is ours only as the front of the file it names.
    assert Current.of("AGENTS.md", LINE, None).owned is Owned.TEAM


def test_a_team_front_blocks_its_compiled_file() -> None:
    files = {"GEMINI.md": b"# Ours\n"}
    current = scan(False, files.get, {})
    assert TARGET not in writable(current) and "GEMINI.md" not in writable(current)
    assert "AGENTS.md" in writable(current)
    assert TARGET in writable(scan(False, {}.get, {}))


def test_the_front_follows_its_compiled_file() -> None:
    built = assemble(scan(False, {}.get, {}), (SECTION,), {}, frozenset(), force=False)
    assert built.files[TARGET].data == compile_document({"style": b"Use four spaces.\n"})
    assert built.files["GEMINI.md"].data == LINE
    assert built.files["GEMINI.md"].owners == (OWNER,)
    # Nothing compiled: neither file is desired (the planner removes recorded ones).
    empty = assemble(scan(False, {}.get, {}), (), {}, frozenset(), force=False)
    assert TARGET not in empty.files and "GEMINI.md" not in empty.files


def test_a_team_front_with_a_block_holds_the_line() -> None:
    team = b"# Team\n\n" + BLOCK + b"\n## Footer\n"
    current = scan(False, {"GEMINI.md": team}.get, {})
    built = assemble(current, (SECTION,), {}, frozenset(), force=False)
    expected = team.replace(BLOCK, b"<!-- upskill:begin -->\n" + LINE + b"<!-- upskill:end -->\n")
    assert built.files["GEMINI.md"].data == expected
    # An empty block counts as upskill's last write, whatever the team wrote around it.
    assert built.records["GEMINI.md"].sha256 == hashlib.sha256(team).hexdigest()
    # The last rule gone: the block is emptied, the team's bytes kept.
    now = scan(False, {"GEMINI.md": expected}.get, {})
    gone = assemble(now, (), {}, frozenset({"rule:style"}), force=False)
    assert gone.files["GEMINI.md"].data == team
    assert gone.records["GEMINI.md"].sha256 == hashlib.sha256(expected).hexdigest()
