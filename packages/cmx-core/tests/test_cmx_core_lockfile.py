"""§3 lockfile schema and writes; environment formatting; staged tree writes."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cmx_core._bundle import SkillFile
from cmx_core._environment import rfc3339
from cmx_core._errors import FileFormatError
from cmx_core._lockfile import LockEntry, LockFile, LockSource, load_lockfile, save_lockfile
from cmx_core._platforms import ArtifactKind
from cmx_core._treewriter import commit_trees, stage_tree


def test_absent_lockfile_is_empty(tmp_path: Path) -> None:
    assert load_lockfile(tmp_path / "cmx-lock.json") == LockFile()


def test_save_writes_sorted_pretty_json_without_null_and_no_tmp(tmp_path: Path) -> None:
    entry = LockEntry(ArtifactKind.SKILL, None, "t", LockSource("r", "p"), "sha256:a", "sha256:b")
    lock = LockFile().with_entry("zz", entry).with_entry("aa", entry)
    path = tmp_path / "cmx-lock.json"
    save_lockfile(path, lock)
    text = path.read_text()
    assert text.startswith(
        '{\n  "version": 1,\n  "packages": {\n    "aa": {\n      "type": "skill",'
    )
    assert not text.endswith("\n") and "null" not in text
    assert list(json.loads(text)["packages"]) == ["aa", "zz"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cmx-lock.json"]
    assert load_lockfile(path) == lock


def test_failed_write_leaves_previous_lockfile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "cmx-lock.json"
    path.write_text('{"version": 1, "packages": {}}')
    import cmx_core._atomic as atomic

    def boom(fd: int) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(atomic.os, "fsync", boom)
    entry = LockEntry(ArtifactKind.SKILL, "1", "t", LockSource("r", "p"), "s", "i")
    with pytest.raises(OSError, match="disk full"):
        save_lockfile(path, LockFile().with_entry("x", entry))
    assert path.read_text() == '{"version": 1, "packages": {}}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cmx-lock.json"]


def test_null_version_reads_as_absent_and_is_omitted_on_rewrite(tmp_path: Path) -> None:
    path = tmp_path / "cmx-lock.json"
    raw = {
        "version": 1,
        "packages": {
            "a": {
                "type": "agent",
                "version": None,
                "installed_at": "2026-07-05T12:00:00.123456789Z",
                "source": {"repo": "r", "path": "p"},
                "source_checksum": "s",
                "installed_checksum": "i",
            }
        },
    }
    path.write_text(json.dumps(raw))
    lock = load_lockfile(path)
    assert lock.packages["a"].version is None and lock.packages["a"].kind is ArtifactKind.AGENT
    save_lockfile(path, lock)
    assert "version" not in json.loads(path.read_text())["packages"]["a"]


def test_directory_in_place_of_lockfile(tmp_path: Path) -> None:
    (tmp_path / "cmx-lock.json").mkdir()
    with pytest.raises(FileFormatError, match="is a directory"):
        load_lockfile(tmp_path / "cmx-lock.json")


def test_rfc3339_matches_chrono_style() -> None:
    assert rfc3339(dt.datetime(2026, 7, 5, 12, 0, tzinfo=dt.UTC)) == "2026-07-05T12:00:00+00:00"
    assert rfc3339(dt.datetime(2026, 7, 5, 12, 0, 0, 5)) == "2026-07-05T12:00:00.000005+00:00"


_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)
_entries = st.builds(
    LockEntry,
    kind=st.sampled_from(list(ArtifactKind)),
    version=st.none() | _text,
    installed_at=_text,
    source=st.builds(LockSource, _text, _text),
    source_checksum=_text,
    installed_checksum=_text,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.dictionaries(_text, _entries, max_size=5))
def test_lockfile_round_trips(tmp_path: Path, entries: dict[str, LockEntry]) -> None:
    lock = LockFile()
    for name, entry in entries.items():
        lock = lock.with_entry(name, entry)
    path = tmp_path / "cmx-lock.json"
    save_lockfile(path, lock)
    assert dict(load_lockfile(path).packages) == dict(lock.packages)


def test_interrupted_staging_is_replaced(tmp_path: Path) -> None:
    dest = tmp_path / "skills" / "tool"
    leftover = tmp_path / "skills" / ".tool.cmx-staging"
    (leftover / "junk").mkdir(parents=True)
    commit_trees([stage_tree(dest, [SkillFile.text("SKILL.md", "x")])])
    assert sorted(p.name for p in (tmp_path / "skills").iterdir()) == ["tool"]
    assert [p.name for p in dest.iterdir()] == ["SKILL.md"]


def test_failed_staging_leaves_existing_tree_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dest = tmp_path / "tool"
    dest.mkdir()
    (dest / "SKILL.md").write_text("old")
    import cmx_core._treewriter as treewriter

    calls = []

    def flaky(path: Path, data: bytes, *, durable: bool) -> None:
        calls.append(path)
        if len(calls) == 2:
            raise OSError("no space left")
        path.write_bytes(data)

    monkeypatch.setattr(treewriter, "write_file", flaky)
    files = [SkillFile.text("SKILL.md", "new"), SkillFile.text("b/c.md", "x")]
    for replace in (False, True):
        calls.clear()
        with pytest.raises(OSError, match="no space left"):
            stage_tree(dest, files, replace=replace)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["tool"]
        assert sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*")) == ["SKILL.md", "b"]
        assert (dest / "SKILL.md").read_text() == "old"


def test_bundle_file_replaces_a_local_directory(tmp_path: Path) -> None:
    dest = tmp_path / "tool"
    (dest / "notes.md").mkdir(parents=True)
    (dest / "notes.md" / "inner").write_text("x")
    commit_trees([stage_tree(dest, [SkillFile.text("notes.md", "file now")])])
    assert (dest / "notes.md").read_text() == "file now"
