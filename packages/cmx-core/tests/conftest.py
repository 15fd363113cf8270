"""Shared fixtures: a sandboxed machine (temp home + project, fixed clock) per test."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import pytest

from cmx_core import (
    BundledSkill,
    Environment,
    FixedClock,
    FixedHome,
    FixedWorkdir,
    SkillFile,
    SkillInstaller,
    ToolIdentity,
)

REPO_ROOT = Path(__file__).resolve().parents[3]
UPSTREAM_FIXTURES = REPO_ROOT / "conformance" / "cmx-core"
EXTRA_FIXTURES = REPO_ROOT / "conformance" / "cmx-core-extra"
FIXED_NOW = dt.datetime(2026, 7, 5, 12, 0, 0, tzinfo=dt.UTC)

SAMPLE_SKILL_MD = "---\nname: sample\ndescription: Sample skill\n---\n# Sample\n"


@dataclass(frozen=True)
class Machine:
    home: Path
    project: Path
    env: Environment

    @property
    def config_root(self) -> Path:
        return self.home / ".config" / "context-mixer"

    def installer(self, name: str = "sample", version: str = "1.0.0") -> SkillInstaller:
        return SkillInstaller(ToolIdentity(name, version), self.env)

    def files(self) -> dict[str, bytes]:
        """Every file under the sandbox, for before/after comparisons."""
        root = self.home.parent
        return {
            p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*"))
            if p.is_file()
        }


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    home = tmp_path / "home"
    project = tmp_path / "project"
    home.mkdir()
    project.mkdir()
    env = Environment(FixedHome(home), FixedWorkdir(project), FixedClock(FIXED_NOW))
    return Machine(home, project, env)


@pytest.fixture
def sample_bundle() -> BundledSkill:
    return BundledSkill.from_files(
        [
            SkillFile.text("SKILL.md", SAMPLE_SKILL_MD),
            SkillFile.text("scripts/tool.py", "print('hello')\n"),
        ]
    )


@pytest.fixture
def upstream_fixtures() -> Path:
    return UPSTREAM_FIXTURES


@pytest.fixture
def extra_fixtures() -> Path:
    return EXTRA_FIXTURES
