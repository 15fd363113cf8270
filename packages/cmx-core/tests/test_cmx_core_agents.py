"""Agent installs: markdown everywhere, TOML for Codex, lock entries per platform."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cmx_core import (
    AgentInstaller,
    BlockedPlanError,
    DriftedSkip,
    Install,
    ParityError,
    Platform,
    Scope,
    Skip,
    ToolIdentity,
)
from cmx_core._codex import markdown_to_codex_toml, toml_basic_string

AGENT_MD = "---\nname: reviewer\ndescription: Reviews code\nmodel: gpt-5\n---\nReview carefully.\n"


def _manage(machine: Any, *platforms: str) -> None:
    machine.config_root.mkdir(parents=True, exist_ok=True)
    (machine.config_root / "config.json").write_text(
        json.dumps({"version": 1, "platforms": list(platforms)})
    )


def test_agent_plan_apply_claude_and_codex(machine: Any) -> None:
    _manage(machine, "claude", "codex", "pi")
    installer = AgentInstaller(ToolIdentity("reviewer", "1.2.0"), machine.env)
    plan = installer.plan(AGENT_MD, Scope.GLOBAL)
    assert [t.platform for t in plan.targets] == [Platform.CLAUDE, Platform.CODEX]
    assert all(isinstance(t.action, Install) for t in plan.targets)
    report = installer.apply(AGENT_MD, plan)
    assert report.source_registered
    md = (machine.home / ".claude/agents/reviewer.md").read_text()
    assert md == AGENT_MD.replace("---\nReview", 'metadata:\n  version: "1.2.0"\n---\nReview')
    toml = (machine.home / ".codex/agents/reviewer.toml").read_text()
    assert toml == (
        'name = "reviewer"\ndescription = "Reviews code"\nmodel = "gpt-5"\n'
        'developer_instructions = "Review carefully."\n'
    )
    codex_lock = json.loads((machine.config_root / "cmx-lock-codex.json").read_text())
    entry = codex_lock["packages"]["reviewer"]
    assert entry["type"] == "agent"
    assert entry["source"] == {"repo": "bundled:reviewer", "path": "agents/reviewer.md"}
    assert entry["source_checksum"] == plan.source_checksum != entry["installed_checksum"]
    assert (machine.config_root / "home/agents/reviewer.md").read_text() == md

    again = installer.plan(AGENT_MD, Scope.GLOBAL)
    assert all(isinstance(t.action, Skip) for t in again.targets)
    (machine.home / ".codex/agents/reviewer.toml").write_text("edited")
    drifted = installer.plan(AGENT_MD, Scope.GLOBAL)
    assert isinstance(drifted.targets[1].action, DriftedSkip)
    assert str(drifted) == (
        "Install plan for reviewer v1.2.0\n"
        f"  claude → {machine.home}/.claude/agents/reviewer.md (skip (up to date))\n"
        f"  codex → {machine.home}/.codex/agents/reviewer.toml (skip (drifted from 1.2.0))\n"
    )


def test_agent_guards(machine: Any) -> None:
    newer = AgentInstaller(ToolIdentity("reviewer", "2.0.0"), machine.env)
    newer.apply(AGENT_MD, newer.plan(AGENT_MD, Scope.LOCAL))
    assert (machine.project / ".claude/agents/reviewer.md").is_file()
    older = AgentInstaller(ToolIdentity("reviewer", "1.0.0"), machine.env)
    plan = older.plan(AGENT_MD, Scope.LOCAL)
    with pytest.raises(BlockedPlanError):
        older.apply(AGENT_MD, plan)
    forced = older.plan(AGENT_MD, Scope.LOCAL, force=True)
    with pytest.raises(ParityError):
        older.apply(AGENT_MD + "extra\n", forced)
    report = older.apply(AGENT_MD, forced)
    assert str(report.targets[0].action) == "downgrade from 2.0.0"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ('a"b', '"a\\"b"'),
        ("back\\slash", '"back\\\\slash"'),
        ("\x01\x7f\b\f\r\t", '"\\u0001\\u007F\\b\\f\\r\\t"'),
        ("ünï", '"ünï"'),
    ],
)
def test_toml_escaping(value: str, expected: str) -> None:
    assert toml_basic_string(value) == expected


def test_codex_fallbacks() -> None:
    assert markdown_to_codex_toml("---\nname:\nmodel: ''\n---\n", "fallback") == (
        'name = "fallback"\ndescription = ""\ndeveloper_instructions = ""\n'
    )
    nested = "---\nmetadata:\n  name: nested\ndescription: 'top'\n---\nbody\r\n"
    assert markdown_to_codex_toml(nested, "fb") == (
        'name = "fb"\ndescription = "top"\ndeveloper_instructions = "body\\r"\n'
    )


def test_agent_status_and_remove(machine: Any) -> None:
    _manage(machine, "codex", "gemini")
    installer = AgentInstaller(ToolIdentity("reviewer", "1.2.0"), machine.env)
    installer.apply(AGENT_MD, installer.plan(AGENT_MD, Scope.GLOBAL))
    toml = machine.home / ".codex/agents/reviewer.toml"
    toml.write_text("edited")
    status = installer.status(Scope.GLOBAL)
    assert [(t.platform, t.installed, t.tracked, t.drifted) for t in status.targets] == [
        (Platform.CODEX, True, True, True),
        (Platform.GEMINI, True, True, False),
    ]
    report = installer.remove(Scope.GLOBAL)
    assert report.removed_dirs == (toml, machine.home / ".gemini/agents/reviewer.md")
    assert report.platforms_cleared == (Platform.CODEX, Platform.GEMINI)
    assert report.source_unregistered
    assert not (machine.config_root / "home/agents/reviewer.md").exists()
    codex_lock = json.loads((machine.config_root / "cmx-lock-codex.json").read_text())
    assert codex_lock == {"version": 1, "packages": {}}
