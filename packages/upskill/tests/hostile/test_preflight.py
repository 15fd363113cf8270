"""A run that cannot finish fails before its commit point, whole (issue 13, "after the
commit point"): nothing staged, no journal left to repeat the failure on every run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from upskill.lifecycle import journal
from upskill.lifecycle.fsops import UnsafePath
from upskill.lifecycle.journal import Transaction, Write, apply_transaction


def test_a_directory_in_the_way_under_force_fails_whole(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), "--claude", cwd=project)
    h.write_item(registry, "rule", "commits", "Changed upstream.\n")
    h.write_item(registry, "skill", "review", "Changed too.\n")
    target = project / ".claude/skills/review/SKILL.md"
    target.unlink()
    target.mkdir()
    before = h.snapshot(project)
    out = cli.run("update", "--force", cwd=project)
    assert out.returncode == 1
    assert out.stderr.endswith(
        f"upskill: error: {target}: a directory is in the way of an output file\n"
    )
    assert h.snapshot(project) == before  # the rule was not updated either
    assert not cli.journal(project).exists()
    doctor = cli.run("doctor", cwd=project)
    assert doctor.returncode == 1 and "pending" not in doctor.stdout


def _txn() -> Transaction:
    return Transaction(
        (Write(".github/skills/s/SKILL.md", b"s\n"), Write(".claude/rules/r.md", b"r\n")),
        (),
        b"{}\n",
    )


def test_an_unwritable_directory_fails_before_anything_is_staged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a user without write access to a root-owned `.github` (root itself is never
    refused by the kernel, so the check is driven through `os.access`)."""
    (tmp_path / ".github").mkdir()
    (tmp_path / ".claude" / "rules").mkdir(parents=True)
    real = os.access
    monkeypatch.setattr(
        journal.os, "access", lambda p, m: False if Path(p).name == ".github" else real(p, m)
    )
    with pytest.raises(UnsafePath, match="cannot write here: permission denied") as err:
        apply_transaction(tmp_path, tmp_path / ".upskill-lock.json", _txn(), state=tmp_path / "st")
    assert err.value.path == tmp_path / ".github"
    assert not (tmp_path / ".upskill").exists() and not (tmp_path / "st").exists()
    assert not (tmp_path / ".claude/rules/r.md").exists()


def test_a_full_filesystem_fails_before_anything_is_staged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Full:
        f_bavail = 10
        f_frsize = 4096

    monkeypatch.setattr(journal.os, "statvfs", lambda _p: Full())
    with pytest.raises(UnsafePath, match="not enough free space"):
        apply_transaction(tmp_path, tmp_path / ".upskill-lock.json", _txn(), state=tmp_path / "st")
    assert sorted(p.name for p in tmp_path.iterdir()) == []
