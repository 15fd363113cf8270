"""Scope path resolution (§2): install dirs, lockfiles and the global config root."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cmx_core._environment import Environment
from cmx_core._platforms import ArtifactKind, Platform, Scope

CONFIG_DIRNAME = ".config/context-mixer"
LOCAL_LOCK_DIRNAME = ".context-mixer"


@dataclass(frozen=True)
class Layout:
    """Absolute anchors resolved once per operation from the injected environment."""

    home: Path
    project_root: Path

    @classmethod
    def resolve(cls, env: Environment) -> Layout:
        return cls(home=env.home.home(), project_root=env.workdir.cwd())

    @property
    def config_root(self) -> Path:
        """Always under home, whatever the scope: config is global only."""
        return self.home / CONFIG_DIRNAME

    def anchor(self, scope: Scope) -> Path:
        return self.home if scope is Scope.GLOBAL else self.project_root

    def lock_dir(self, scope: Scope) -> Path:
        return self.config_root if scope is Scope.GLOBAL else self.project_root / LOCAL_LOCK_DIRNAME

    def lock_path(self, platform: Platform, scope: Scope) -> Path:
        return self.lock_dir(scope) / platform.lockname

    def install_dir(self, platform: Platform, kind: ArtifactKind, scope: Scope) -> Path | None:
        sub = platform.subpath(kind, scope)
        return None if sub is None else self.anchor(scope) / sub

    def skill_dir(self, platform: Platform, scope: Scope, name: str) -> Path:
        base = self.install_dir(platform, ArtifactKind.SKILL, scope)
        assert base is not None  # every platform supports skills
        return base / name

    def agent_path(self, platform: Platform, scope: Scope, name: str) -> Path | None:
        base = self.install_dir(platform, ArtifactKind.AGENT, scope)
        if base is None:
            return None
        suffix = ".toml" if platform.agent_as_toml else ".md"
        return base / f"{name}{suffix}"

    def artifact_path(
        self, platform: Platform, kind: ArtifactKind, scope: Scope, name: str
    ) -> Path | None:
        """Where one artifact lives: a skill directory or an agent file."""
        if kind is ArtifactKind.SKILL:
            return self.skill_dir(platform, scope, name)
        return self.agent_path(platform, scope, name)

    def materialized_path(self, home: Path, kind: ArtifactKind, name: str) -> Path:
        """The copy a managed machine keeps under the artifact home (§8.2)."""
        if kind is ArtifactKind.SKILL:
            return home / "skills" / name
        return home / "agents" / f"{name}.md"

    @property
    def config_path(self) -> Path:
        return self.config_root / "config.json"

    @property
    def sources_path(self) -> Path:
        return self.config_root / "sources.json"
