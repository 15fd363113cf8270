"""Golden display strings (reference-notes "Display") for plans, reports, removals."""

from __future__ import annotations

from typing import Any

from cmx_core import (
    BundledSkill,
    Downgrade,
    DriftedSkip,
    Install,
    Platform,
    RefuseNewer,
    Scope,
    Skip,
    Update,
)


def test_action_labels() -> None:
    assert [str(a) for a in (Install(), Update("1.0.0"), Update(None), Skip())] == [
        "install",
        "update from 1.0.0",
        "update from ?",
        "skip (up to date)",
    ]
    assert str(DriftedSkip("1.0.0")) == "skip (drifted from 1.0.0)"
    assert str(RefuseNewer("9.0.0")) == "refuse (installed 9.0.0 is newer)"
    assert str(Downgrade("9.0.0")) == "downgrade from 9.0.0"
    assert (Install().will_write, Skip().will_write, RefuseNewer("x").is_blocked) == (
        True,
        False,
        True,
    )


def test_plan_report_status_remove_text(machine: Any, sample_bundle: BundledSkill) -> None:
    installer = machine.installer()
    plan = installer.plan(sample_bundle, Scope.GLOBAL)
    dest = machine.home / ".claude/skills/sample"
    assert str(plan) == (
        "Install plan for sample v1.0.0\n"
        "  scope: global\n"
        f"  checksum: {plan.source_checksum}\n"
        f"  claude → {dest} (install)\n"
    )
    report = installer.apply(sample_bundle, plan)
    assert str(report) == f"Installed sample v1.0.0 (global)\n  claude → {dest} (install)\n"
    assert str(installer.status(Scope.GLOBAL)) == (
        f"Status of sample (global)\n  claude → {dest} (v1.0.0, up to date)\n"
    )
    assert str(installer.remove(Scope.GLOBAL)) == (
        "Removed sample (global)\n"
        "  claude lock entry cleared\n"
        f"  removed: {dest}\n"
        "  note: cmx-lock.json left on disk (shared with other tools)\n"
    )
    assert str(Platform.CLAUDE) == "claude" and Platform.CLAUDE.lockname == "cmx-lock.json"
