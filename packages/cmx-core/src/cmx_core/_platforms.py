"""The 14-platform matrix: one table, so slugs, lock names and subpaths cannot disagree."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Scope(enum.Enum):
    """Where an install lands: under the home directory or under the project root."""

    GLOBAL = "global"
    LOCAL = "local"

    @property
    def label(self) -> str:
        return self.value

    def __str__(self) -> str:
        return self.value


class ArtifactKind(enum.Enum):
    """The two artifact kinds a lock entry can describe."""

    SKILL = "skill"
    AGENT = "agent"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class _Row:
    skill_local: str
    skill_global: str
    agent_local: str | None
    agent_global: str | None
    agent_as_toml: bool = False


class Platform(enum.Enum):
    """A coding agent that reads skills; declaration order is the reference's ALL order."""

    CLAUDE = "claude"
    COPILOT = "copilot"
    CURSOR = "cursor"
    WINDSURF = "windsurf"
    GEMINI = "gemini"
    OPENCODE = "opencode"
    CODEX = "codex"
    PI = "pi"
    CRUSH = "crush"
    AMP = "amp"
    ZED = "zed"
    OPENHANDS = "openhands"
    HERMES = "hermes"
    DEVIN = "devin"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, token: str) -> Platform:
        """Parse the lowercase name used by `--platform` and `config.json`."""
        for platform in cls:
            if platform.value == token:
                return platform
        raise ValueError(f"unknown platform {token!r}")

    @property
    def slug(self) -> str:
        """Claude's slug is empty so its lockfile keeps the historic `cmx-lock.json` name."""
        return "" if self is Platform.CLAUDE else self.value

    @property
    def lockname(self) -> str:
        return "cmx-lock.json" if not self.slug else f"cmx-lock-{self.slug}.json"

    def subpath(self, kind: ArtifactKind, scope: Scope) -> str | None:
        """The `/`-joined install subpath, or None when the platform lacks that kind."""
        row = _MATRIX[self]
        if kind is ArtifactKind.SKILL:
            return row.skill_local if scope is Scope.LOCAL else row.skill_global
        return row.agent_local if scope is Scope.LOCAL else row.agent_global

    def supports(self, kind: ArtifactKind) -> bool:
        return self.subpath(kind, Scope.GLOBAL) is not None

    @property
    def agent_as_toml(self) -> bool:
        """Codex reads agents as TOML documents rather than markdown."""
        return _MATRIX[self].agent_as_toml


_SHARED = ".agents/skills"

_MATRIX: dict[Platform, _Row] = {
    Platform.CLAUDE: _Row(".claude/skills", ".claude/skills", ".claude/agents", ".claude/agents"),
    Platform.COPILOT: _Row(
        ".github/skills", ".copilot/skills", ".github/agents", ".copilot/agents"
    ),
    Platform.CURSOR: _Row(".cursor/skills", ".cursor/skills", ".cursor/agents", ".cursor/agents"),
    Platform.WINDSURF: _Row(
        ".windsurf/skills",
        ".codeium/windsurf/skills",
        ".windsurf/agents",
        ".codeium/windsurf/agents",
    ),
    Platform.GEMINI: _Row(".gemini/skills", ".gemini/skills", ".gemini/agents", ".gemini/agents"),
    Platform.OPENCODE: _Row(_SHARED, _SHARED, ".opencode/agent", ".config/opencode/agent"),
    Platform.CODEX: _Row(_SHARED, _SHARED, ".codex/agents", ".codex/agents", agent_as_toml=True),
    Platform.PI: _Row(_SHARED, _SHARED, None, None),
    Platform.CRUSH: _Row(_SHARED, _SHARED, None, None),
    Platform.AMP: _Row(_SHARED, ".config/agents/skills", None, None),
    Platform.ZED: _Row(_SHARED, _SHARED, None, None),
    Platform.OPENHANDS: _Row(_SHARED, _SHARED, None, None),
    Platform.HERMES: _Row(_SHARED, ".hermes/skills", None, None),
    Platform.DEVIN: _Row(_SHARED, _SHARED, None, None),
}

ALL_PLATFORMS: tuple[Platform, ...] = tuple(Platform)
