"""The facade an embedding tool uses: plan, apply, status, remove for its companion skill."""

from __future__ import annotations

from cmx_core._applier import apply_plan
from cmx_core._bundle import BundledSkill, SkillFile
from cmx_core._checksum import checksum_pairs
from cmx_core._environment import Environment
from cmx_core._errors import MissingSkillMdError
from cmx_core._frontmatter import reconcile_skill_files
from cmx_core._identity import ToolIdentity
from cmx_core._paths import Layout
from cmx_core._plan import InstallPlan
from cmx_core._planner import build_plan
from cmx_core._platforms import ArtifactKind, Scope
from cmx_core._remover import remove_artifact
from cmx_core._report import RemoveReport, Report, Status
from cmx_core._status import artifact_status
from cmx_core._survey import read_state


class SkillInstaller:
    """Installs one tool's bundled skill; the tool's name is the skill's directory name."""

    def __init__(self, tool: ToolIdentity, env: Environment | None = None) -> None:
        self.tool = tool
        self.env = env if env is not None else Environment()

    def reconcile(self, skill: BundledSkill) -> tuple[SkillFile, ...]:
        """The exact bytes that get checksummed and written (SKILL.md version-stamped)."""
        if not skill.has_skill_md():
            raise MissingSkillMdError(self.tool.name)
        return reconcile_skill_files(skill.files, self.tool.version)

    def plan(self, skill: BundledSkill, scope: Scope, *, force: bool = False) -> InstallPlan:
        """Dry run: reads config, lockfiles and destinations; writes nothing."""
        files = self.reconcile(skill)
        source_checksum = checksum_pairs((f.rel_path, f.data) for f in files)
        layout = Layout.resolve(self.env)
        state = read_state(layout, scope)
        destinations = {
            p: layout.skill_dir(p, scope, self.tool.name)
            for p in state.install_targets(ArtifactKind.SKILL)
        }
        state = state.with_skill_checksums(destinations, self.tool.name)
        return build_plan(self.tool, files, source_checksum, scope, destinations, state, force)

    def apply(self, skill: BundledSkill, plan: InstallPlan) -> Report:
        """Execute `plan`; refuses a blocked plan and a bundle that changed since plan()."""
        return apply_plan(plan, self.reconcile(skill), Layout.resolve(self.env), self.env.clock)

    def status(self, scope: Scope) -> Status:
        return artifact_status(self.tool.name, ArtifactKind.SKILL, scope, Layout.resolve(self.env))

    def remove(self, scope: Scope) -> RemoveReport:
        return remove_artifact(self.tool.name, ArtifactKind.SKILL, scope, Layout.resolve(self.env))
