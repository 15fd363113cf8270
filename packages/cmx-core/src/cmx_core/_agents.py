"""Agent installs: one markdown document per platform, TOML for Codex.

Shares the version guard and lockfile code with skills; only the unit of install
(a single file instead of a directory) and the Codex transform differ.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cmx_core._actions import TargetAction
from cmx_core._atomic import write_atomic
from cmx_core._checksum import checksum_bytes
from cmx_core._codex import markdown_to_codex_toml
from cmx_core._config import artifact_home, load_config
from cmx_core._environment import Environment, rfc3339
from cmx_core._errors import BlockedPlanError, ParityError
from cmx_core._frontmatter import reconcile_document_version
from cmx_core._guard import DiskState, decide_action
from cmx_core._identity import ToolIdentity
from cmx_core._lockfile import LockEntry, LockSource, load_lockfile, save_lockfile
from cmx_core._paths import Layout
from cmx_core._platforms import ArtifactKind, Platform, Scope
from cmx_core._remover import remove_artifact
from cmx_core._render import block, target_line
from cmx_core._report import RemoveReport, Status
from cmx_core._scopelock import scope_lock
from cmx_core._sources import bundled_source_name, register
from cmx_core._status import artifact_status
from cmx_core._survey import read_state


@dataclass(frozen=True)
class AgentTargetPlan:
    platform: Platform
    dest_path: Path
    action: TargetAction
    installed_bytes: bytes
    installed_checksum: str

    def __str__(self) -> str:
        return target_line(self.platform, self.dest_path, self.action)


@dataclass(frozen=True)
class AgentInstallPlan:
    artifact: ToolIdentity
    scope: Scope
    source_checksum: str
    targets: tuple[AgentTargetPlan, ...]
    force: bool
    cmx_managed: bool

    @property
    def is_blocked(self) -> bool:
        return any(t.action.is_blocked for t in self.targets)

    def __str__(self) -> str:
        return block(
            [f"Install plan for {self.artifact.name} v{self.artifact.version}"], self.targets
        )


@dataclass(frozen=True)
class AgentTargetOutcome:
    platform: Platform
    dest_path: Path
    action: TargetAction

    def __str__(self) -> str:
        return target_line(self.platform, self.dest_path, self.action)


@dataclass(frozen=True)
class AgentReport:
    artifact: ToolIdentity
    targets: tuple[AgentTargetOutcome, ...]
    source_registered: bool

    def __str__(self) -> str:
        return block([f"Installed {self.artifact.name} v{self.artifact.version}"], self.targets)


@dataclass(frozen=True)
class AgentTransform:
    """The bytes each kind of platform receives for one agent document."""

    reconciled_markdown: str
    codex_toml: str

    @classmethod
    def of(cls, markdown: str, artifact: ToolIdentity) -> AgentTransform:
        reconciled = reconcile_document_version(markdown, artifact.version)
        return cls(reconciled, markdown_to_codex_toml(reconciled, artifact.name))

    def installed_bytes(self, platform: Platform) -> bytes:
        text = self.codex_toml if platform.agent_as_toml else self.reconciled_markdown
        return text.encode("utf-8")

    @property
    def source_checksum(self) -> str:
        return checksum_bytes(self.reconciled_markdown.encode("utf-8"))


class AgentInstaller:
    """plan/apply for a markdown agent a tool generates or ships."""

    def __init__(self, artifact: ToolIdentity, env: Environment | None = None) -> None:
        self.artifact = artifact
        self.env = env if env is not None else Environment()

    def plan(self, markdown: str, scope: Scope, *, force: bool = False) -> AgentInstallPlan:
        transform = AgentTransform.of(markdown, self.artifact)
        layout = Layout.resolve(self.env)
        state = read_state(layout, scope)
        targets = []
        for platform in state.install_targets(ArtifactKind.AGENT):
            dest = layout.agent_path(platform, scope, self.artifact.name)
            assert dest is not None  # targets are filtered to agent-capable platforms
            data = transform.installed_bytes(platform)
            checksum = checksum_bytes(data)
            entry = state.locks[platform].packages.get(self.artifact.name)
            action = decide_action(
                bundled_version=self.artifact.version,
                tracked=entry is not None,
                installed_version=entry.version if entry is not None else None,
                disk=_file_state(dest, checksum),
                force=force,
            )
            targets.append(AgentTargetPlan(platform, dest, action, data, checksum))
        return AgentInstallPlan(
            self.artifact,
            scope,
            transform.source_checksum,
            tuple(targets),
            force,
            state.managed is not None,
        )

    def apply(self, markdown: str, plan: AgentInstallPlan) -> AgentReport:
        if plan.is_blocked:
            raise BlockedPlanError(self.artifact.name)
        transform = AgentTransform.of(markdown, self.artifact)
        if transform.source_checksum != plan.source_checksum:
            raise ParityError(self.artifact.name)
        layout = Layout.resolve(self.env)
        installed_at = rfc3339(self.env.clock.now())
        with scope_lock(layout.lock_dir(plan.scope)):
            for target in plan.targets:
                if not target.action.will_write:
                    continue
                write_atomic(target.dest_path, target.installed_bytes)
                lock_path = layout.lock_path(target.platform, plan.scope)
                entry = LockEntry(
                    kind=ArtifactKind.AGENT,
                    version=self.artifact.version,
                    installed_at=installed_at,
                    source=LockSource(self.artifact.source_repo, f"agents/{self.artifact.name}.md"),
                    source_checksum=plan.source_checksum,
                    installed_checksum=target.installed_checksum,
                )
                save_lockfile(
                    lock_path, load_lockfile(lock_path).with_entry(self.artifact.name, entry)
                )
            registered = plan.cmx_managed and self._register(transform, layout, installed_at)
        outcomes = tuple(
            AgentTargetOutcome(t.platform, t.dest_path, t.action) for t in plan.targets
        )
        return AgentReport(self.artifact, outcomes, registered)

    def status(self, scope: Scope) -> Status:
        """Per agent-capable target: installed, tracked, version and drift of the file."""
        return artifact_status(
            self.artifact.name, ArtifactKind.AGENT, scope, Layout.resolve(self.env)
        )

    def remove(self, scope: Scope) -> RemoveReport:
        """Delete the agent files on the managed-or-all set and clear their lock entries."""
        return remove_artifact(
            self.artifact.name, ArtifactKind.AGENT, scope, Layout.resolve(self.env)
        )

    def _register(self, transform: AgentTransform, layout: Layout, installed_at: str) -> bool:
        home = artifact_home(load_config(layout), layout)
        materialized = layout.materialized_path(home, ArtifactKind.AGENT, self.artifact.name)
        write_atomic(materialized, transform.reconciled_markdown.encode("utf-8"))
        register(
            layout.sources_path,
            bundled_source_name(self.artifact.name),
            materialized,
            installed_at,
            replace=True,
        )
        return True


def _file_state(dest: Path, expected_checksum: str) -> DiskState:
    if not dest.is_file():
        return DiskState.MISSING
    if checksum_bytes(dest.read_bytes()) == expected_checksum:
        return DiskState.MATCHES_SOURCE
    return DiskState.DRIFTED
