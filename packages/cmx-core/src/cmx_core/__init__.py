"""cmx-core: install a tool's companion skill into every agent platform it finds.

Standard library only. Writes cmx-compatible lockfiles so a later `cmx` finds the
skill tracked; never needs the `cmx` binary.
"""

from cmx_core._actions import (
    Downgrade,
    DriftedSkip,
    Install,
    RefuseNewer,
    Skip,
    TargetAction,
    Update,
)
from cmx_core._agents import AgentInstaller, AgentInstallPlan, AgentReport
from cmx_core._bundle import BundledSkill, SkillFile
from cmx_core._environment import (
    Clock,
    Environment,
    FixedClock,
    FixedHome,
    FixedWorkdir,
    HomeLocator,
    WorkdirLocator,
)
from cmx_core._errors import (
    BlockedPlanError,
    CmxError,
    FileFormatError,
    InvalidInputError,
    LockHeldError,
    MissingSkillMdError,
    ParityError,
    UnsafePathError,
)
from cmx_core._identity import ToolIdentity
from cmx_core._installer import SkillInstaller
from cmx_core._plan import InstallPlan, PlannedFile, TargetPlan
from cmx_core._platforms import ALL_PLATFORMS, ArtifactKind, Platform, Scope
from cmx_core._report import RemoveReport, Report, Status, TargetOutcome, TargetStatus

__version__ = "0.1.0"

__all__ = [
    "ALL_PLATFORMS",
    "AgentInstallPlan",
    "AgentInstaller",
    "AgentReport",
    "ArtifactKind",
    "BlockedPlanError",
    "BundledSkill",
    "Clock",
    "CmxError",
    "Downgrade",
    "DriftedSkip",
    "Environment",
    "FileFormatError",
    "FixedClock",
    "FixedHome",
    "FixedWorkdir",
    "HomeLocator",
    "Install",
    "InstallPlan",
    "InvalidInputError",
    "LockHeldError",
    "MissingSkillMdError",
    "ParityError",
    "PlannedFile",
    "Platform",
    "RefuseNewer",
    "RemoveReport",
    "Report",
    "Scope",
    "SkillFile",
    "SkillInstaller",
    "Skip",
    "Status",
    "TargetAction",
    "TargetOutcome",
    "TargetPlan",
    "TargetStatus",
    "ToolIdentity",
    "UnsafePathError",
    "Update",
    "WorkdirLocator",
    "__version__",
]
