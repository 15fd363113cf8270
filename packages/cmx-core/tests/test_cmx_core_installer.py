"""plan / apply / status / remove on a sandboxed machine (§3, §7, §8, §9)."""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path
from typing import Any

import pytest

from cmx_core import (
    BlockedPlanError,
    BundledSkill,
    FileFormatError,
    Install,
    InvalidInputError,
    LockHeldError,
    MissingSkillMdError,
    ParityError,
    Platform,
    RefuseNewer,
    Scope,
    SkillFile,
    Skip,
    ToolIdentity,
    UnsafePathError,
    Update,
)


def _read(path: Path) -> Any:
    return json.loads(path.read_text())


def _manage(machine: Any, *platforms: str) -> None:
    machine.config_root.mkdir(parents=True, exist_ok=True)
    (machine.config_root / "config.json").write_text(
        json.dumps({"version": 1, "platforms": list(platforms)})
    )


def test_plan_writes_nothing(machine: Any, sample_bundle: BundledSkill) -> None:
    _manage(machine, "claude", "codex")
    before = machine.files()
    plan = machine.installer().plan(sample_bundle, Scope.GLOBAL)
    assert machine.files() == before
    assert [t.platform for t in plan.targets] == [Platform.CLAUDE, Platform.CODEX]
    assert all(isinstance(t.action, Install) for t in plan.targets)
    assert plan.will_write and not plan.is_blocked


def test_fresh_install_then_skip_then_status(machine: Any, sample_bundle: BundledSkill) -> None:
    installer = machine.installer()
    report = installer.apply(sample_bundle, installer.plan(sample_bundle, Scope.GLOBAL))
    skill_dir = machine.home / ".claude/skills/sample"
    assert (skill_dir / "SKILL.md").read_text() == (
        "---\nname: sample\ndescription: Sample skill\n"
        'metadata:\n  version: "1.0.0"\n---\n# Sample\n'
    )
    assert report.source_registered is False
    assert not (machine.config_root / "sources.json").exists()
    lock = _read(machine.config_root / "cmx-lock.json")
    entry = lock["packages"]["sample"]
    assert entry["installed_at"] == "2026-07-05T12:00:00+00:00"
    assert entry["source"] == {"repo": "bundled:sample", "path": "skills/sample"}
    assert (
        entry["source_checksum"]
        == entry["installed_checksum"]
        == report.targets[0].installed_checksum
    )
    assert sorted(os.listdir(machine.config_root)) == ["cmx-lock.json"]  # no .tmp left behind

    second = installer.plan(sample_bundle, Scope.GLOBAL)
    assert isinstance(second.targets[0].action, Skip)
    assert installer.apply(sample_bundle, second).targets[0].files_written == 0

    status = installer.status(Scope.GLOBAL)
    target = status.targets[0]
    assert (target.installed, target.tracked, target.installed_version, target.drifted) == (
        True,
        True,
        "1.0.0",
        False,
    )
    (skill_dir / "scripts/tool.py").write_text("print('edited')\n")
    assert installer.status(Scope.GLOBAL).targets[0].drifted is True
    (skill_dir / ".notes").write_text("dotfiles never count as drift\n")
    (skill_dir / "scripts/tool.py").write_text("print('hello')\n")
    assert installer.status(Scope.GLOBAL).any_drifted is False


def test_shared_dir_written_once_with_one_lock_per_platform(
    machine: Any, sample_bundle: BundledSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    _manage(machine, "codex", "pi", "devin")
    writes: list[Path] = []
    import cmx_core._applier as applier

    real = applier.stage_tree

    def spy(dest: Path, files: Any, **kwargs: Any) -> Any:
        writes.append(dest)
        return real(dest, files, **kwargs)

    monkeypatch.setattr(applier, "stage_tree", spy)
    installer = machine.installer()
    report = installer.apply(sample_bundle, installer.plan(sample_bundle, Scope.GLOBAL))
    shared = machine.home / ".agents/skills/sample"
    home_copy = machine.config_root / "home/skills/sample"
    assert writes == [shared, home_copy]
    for slug in ("codex", "pi", "devin"):
        assert "sample" in _read(machine.config_root / f"cmx-lock-{slug}.json")["packages"]
    assert not (machine.config_root / "cmx-lock.json").exists()
    assert report.source_registered
    sources = _read(machine.config_root / "sources.json")
    assert sources["sources"]["bundled:sample"] == {
        "type": "local",
        "path": str(home_copy),
        "last_updated": "2026-07-05T12:00:00+00:00",
    }
    assert (home_copy / "SKILL.md").read_bytes() == (shared / "SKILL.md").read_bytes()


def test_rewrite_keeps_other_tools_entries_and_drops_unknown_keys(
    machine: Any, sample_bundle: BundledSkill
) -> None:
    machine.config_root.mkdir(parents=True)
    other = {
        "type": "agent",
        "installed_at": "2025-01-01T00:00:00Z",
        "source": {"repo": "git:x", "path": "agents/x.md"},
        "source_checksum": "sha256:aa",
        "installed_checksum": "sha256:bb",
        "pinned": True,
    }
    (machine.config_root / "cmx-lock.json").write_text(
        json.dumps({"version": 1, "packages": {"zeta": other}, "generator": "cmx 9"})
    )
    installer = machine.installer()
    installer.apply(sample_bundle, installer.plan(sample_bundle, Scope.GLOBAL))
    text = (machine.config_root / "cmx-lock.json").read_text()
    lock = json.loads(text)
    # As the reference's serde types do (lockfile-roundtrip/unknown-*-key): other
    # tools' entries survive, keys no version of the format defines do not.
    assert list(lock["packages"]) == ["sample", "zeta"]
    assert lock["packages"]["zeta"] == {k: v for k, v in other.items() if k != "pinned"}
    assert "version" not in lock["packages"]["zeta"]
    assert "generator" not in lock
    assert "null" not in text


def test_remove_clears_everything_but_keeps_lockfiles(
    machine: Any, sample_bundle: BundledSkill
) -> None:
    _manage(machine, "claude", "zed")
    installer = machine.installer()
    installer.apply(sample_bundle, installer.plan(sample_bundle, Scope.GLOBAL))
    report = installer.remove(Scope.GLOBAL)
    assert report.platforms_cleared == (Platform.CLAUDE, Platform.ZED)
    assert report.removed_dirs == (
        machine.home / ".agents/skills/sample",
        machine.home / ".claude/skills/sample",
    )
    assert report.source_unregistered and report.was_on_disk and report.was_tracked
    assert _read(machine.config_root / "cmx-lock.json") == {"version": 1, "packages": {}}
    assert _read(machine.config_root / "cmx-lock-zed.json") == {"version": 1, "packages": {}}
    assert _read(machine.config_root / "sources.json") == {"version": 1, "sources": {}}
    assert not (machine.config_root / "home/skills/sample").exists()


def test_unmanaged_remove_covers_all_platforms(machine: Any, sample_bundle: BundledSkill) -> None:
    stray = machine.home / ".hermes/skills/sample"
    stray.mkdir(parents=True)
    (stray / "SKILL.md").write_text("x")
    report = machine.installer().remove(Scope.GLOBAL)
    assert report.removed_dirs == (stray,)
    assert not stray.exists()
    assert report.platforms_cleared == () and not report.source_unregistered


def test_blocked_plan_and_parity_guard(machine: Any, sample_bundle: BundledSkill) -> None:
    machine.installer(version="2.0.0").apply(
        sample_bundle, machine.installer(version="2.0.0").plan(sample_bundle, Scope.GLOBAL)
    )
    older = machine.installer(version="1.0.0")
    plan = older.plan(sample_bundle, Scope.GLOBAL)
    assert isinstance(plan.targets[0].action, RefuseNewer) and plan.is_blocked
    before = machine.files()
    with pytest.raises(BlockedPlanError) as blocked:
        older.apply(sample_bundle, plan)
    assert blocked.value.exit_code == 4
    assert str(blocked.value) == (
        "Install plan for 'sample' is blocked. Run with force=true to override."
    )
    assert machine.files() == before

    forced = older.plan(sample_bundle, Scope.GLOBAL, force=True)
    changed = BundledSkill.single_md("---\nname: other\n---\n")
    with pytest.raises(ParityError, match="has changed since plan"):
        older.apply(changed, forced)
    assert machine.files() == before


def test_force_update_reports_discarded_paths(machine: Any, sample_bundle: BundledSkill) -> None:
    installer = machine.installer()
    installer.apply(sample_bundle, installer.plan(sample_bundle, Scope.GLOBAL))
    skill_dir = machine.home / ".claude/skills/sample"
    (skill_dir / "scripts/tool.py").write_text("print('mine')\n")
    (skill_dir / "local.md").write_text("mine\n")
    drifted = installer.plan(sample_bundle, Scope.GLOBAL)
    assert str(drifted.targets[0].action) == "skip (drifted from 1.0.0)"
    assert installer.apply(sample_bundle, drifted).targets[0].discarded_paths == ()
    assert (skill_dir / "local.md").exists()

    forced = installer.plan(sample_bundle, Scope.GLOBAL, force=True)
    assert forced.targets[0].action == Update("1.0.0")
    outcome = installer.apply(sample_bundle, forced).targets[0]
    assert outcome.discarded_paths == (skill_dir / "local.md", skill_dir / "scripts/tool.py")
    assert not (skill_dir / "local.md").exists()
    assert (skill_dir / "scripts/tool.py").read_text() == "print('hello')\n"


def test_local_scope_paths(machine: Any, sample_bundle: BundledSkill) -> None:
    installer = machine.installer()
    plan = installer.plan(sample_bundle, Scope.LOCAL)
    assert plan.targets[0].dest_dir == machine.project / ".claude/skills/sample"
    installer.apply(sample_bundle, plan)
    assert (machine.project / ".context-mixer/cmx-lock.json").is_file()
    assert (machine.project / ".claude/skills/sample/SKILL.md").is_file()
    assert not machine.config_root.exists()


def test_malformed_lockfile_names_the_file(machine: Any, sample_bundle: BundledSkill) -> None:
    machine.config_root.mkdir(parents=True)
    bad = machine.config_root / "cmx-lock-codex.json"
    bad.write_text('{"version": 1, "packages": ')
    with pytest.raises(FileFormatError) as err:
        machine.installer().plan(sample_bundle, Scope.GLOBAL)
    assert str(err.value).startswith(f"{bad}: malformed JSON")
    assert err.value.exit_code == 3


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ('{"version": 2, "packages": {}}', "unsupported lockfile version 2"),
        (
            '{"version": 1, "packages": {"x": {"type": "plugin"}}}',
            'packages.x.type must be "skill"',
        ),
        (
            '{"version": 1, "packages": {"x": {"type": "skill", "version": 3}}}',
            "packages.x.version",
        ),
        ("[]", "expected a JSON object"),
    ],
)
def test_invalid_lockfile_contents(
    machine: Any, sample_bundle: BundledSkill, content: str, problem: str
) -> None:
    machine.config_root.mkdir(parents=True)
    (machine.config_root / "cmx-lock.json").write_text(content)
    with pytest.raises(FileFormatError, match=problem):
        machine.installer().plan(sample_bundle, Scope.GLOBAL)


def test_unknown_platform_in_config_fails(machine: Any, sample_bundle: BundledSkill) -> None:
    _manage(machine, "claude", "emacs")
    with pytest.raises(FileFormatError, match="unknown platform 'emacs'"):
        machine.installer().plan(sample_bundle, Scope.GLOBAL)


def test_held_lock_is_a_clear_error(
    machine: Any, sample_bundle: BundledSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cmx_core._scopelock as scopelock

    monkeypatch.setattr(scopelock, "DEFAULT_WAIT_SECONDS", 0.1)
    installer = machine.installer()
    plan = installer.plan(sample_bundle, Scope.GLOBAL)
    machine.config_root.mkdir(parents=True)
    fd = os.open(machine.config_root, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        with pytest.raises(LockHeldError, match="another cmx-core writer holds the lock"):
            installer.apply(sample_bundle, plan)
    finally:
        os.close(fd)
    assert not (machine.home / ".claude").exists()


def test_symlinked_subdir_escaping_the_skill_is_refused(
    machine: Any, sample_bundle: BundledSkill, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    skill_dir = machine.home / ".claude/skills/sample"
    skill_dir.mkdir(parents=True)
    os.symlink(outside, skill_dir / "scripts")
    installer = machine.installer()
    with pytest.raises(UnsafePathError, match="symlink points outside"):
        installer.apply(sample_bundle, installer.plan(sample_bundle, Scope.GLOBAL))
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize("name", ["", "..", "a/b", ".hidden", "a\\b", " pad"])
def test_bad_tool_names(name: str) -> None:
    with pytest.raises(InvalidInputError):
        ToolIdentity(name, "1.0.0")


@pytest.mark.parametrize("path", ["../x", "/abs", "a//b", "a/./b", ""])
def test_bad_bundle_paths(path: str) -> None:
    with pytest.raises(InvalidInputError):
        SkillFile.text(path, "x")


def test_missing_skill_md(machine: Any) -> None:
    bundle = BundledSkill.from_files([SkillFile.text("docs/SKILL.md", "x")])
    with pytest.raises(MissingSkillMdError):
        machine.installer().plan(bundle, Scope.GLOBAL)


def test_bundle_from_directory_rejects_escaping_symlink(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b/SKILL.md").write_text("x")
    (tmp_path / "secret").write_text("s")
    os.symlink(tmp_path / "secret", tmp_path / "b/leak")
    with pytest.raises(UnsafePathError):
        BundledSkill.from_directory(tmp_path / "b")
