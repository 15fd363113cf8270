"""Categories that run the real installer against a sandboxed filesystem."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from cmx_core._bundle import BundledSkill
from cmx_core._errors import BlockedPlanError
from cmx_core._identity import ToolIdentity
from cmx_core._installer import SkillInstaller
from cmx_core._jsonfile import write_json
from cmx_core._plan import InstallPlan
from cmx_core._report import Report
from cmx_core.conformance._diffing import diff_json, diff_tree
from cmx_core.conformance._manifest import Case, Fields, FixtureError, fixture_path, typed
from cmx_core.conformance._pure_cases import parse_platform, parse_scope
from cmx_core.conformance._sandbox import Sandbox

TARGET_RESOLVE = Fields(
    input=frozenset({"scope", "config_platforms", "non_empty_locks"}),
    expected=frozenset({"resolved_platforms"}),
)
INSTALL_E2E = Fields(
    input=frozenset(
        {
            "tool_name",
            "tool_version",
            "scope",
            "force",
            "bundle_dir",
            "pre_tree_dir",
            "pre_locks_dir",
        }
    ),
    expected=frozenset({"tree_dir", "locks_dir", "report_path"}),
)

_PROBE_SKILL = "---\nname: probe\n---\n# Probe\n"
_OTHER_ENTRY = {
    "type": "skill",
    "version": "1.0.0",
    "installed_at": "2026-07-05T12:00:00+00:00",
    "source": {"repo": "bundled:other-tool", "path": "skills/other-tool"},
    "source_checksum": "sha256:" + "0" * 64,
    "installed_checksum": "sha256:" + "0" * 64,
}


def run_target_resolve(case: Case) -> str | None:
    """Seeds config.json and non-empty lockfiles on disk, then asks plan() for its targets."""
    scope = parse_scope(case.input["scope"])
    managed = [parse_platform(p) for p in typed(case, case.input, "config_platforms", list)]
    in_use = [parse_platform(p) for p in typed(case, case.input, "non_empty_locks", list)]
    with tempfile.TemporaryDirectory(prefix="cmx-conformance-") as tmp:
        box = Sandbox.create(Path(tmp))
        layout = box.layout
        if managed:
            write_json(layout.config_path, {"version": 1, "platforms": [p.value for p in managed]})
        for platform in in_use:
            lock = {"version": 1, "packages": {"other-tool": _OTHER_ENTRY}}
            write_json(layout.lock_path(platform, scope), lock)
        installer = SkillInstaller(ToolIdentity("probe-tool", "1.0.0"), box.env)
        plan = installer.plan(BundledSkill.single_md(_PROBE_SKILL), scope)
    actual = {"resolved_platforms": [t.platform.value for t in plan.targets]}
    return diff_json(dict(case.expected), actual)


def plan_json(plan: InstallPlan, box: Sandbox) -> dict[str, Any]:
    return {
        "blocked": plan.is_blocked,
        "cmx_present": plan.cmx_present,
        "scope": plan.scope.value,
        "source_checksum": plan.source_checksum,
        "targets": [
            {
                "platform": t.platform.value,
                "dest_dir": box.fixture_path(t.dest_dir),
                "action": t.action.to_json(),
                "cmx_managed": t.cmx_managed,
            }
            for t in plan.targets
        ],
    }


def report_json(report: Report, box: Sandbox) -> dict[str, Any]:
    return {
        "tool_name": report.tool.name,
        "scope": report.scope.value,
        "source_registered": report.source_registered,
        "targets": [
            {
                "platform": t.platform.value,
                "dest_dir": box.fixture_path(t.dest_dir),
                "action": t.action.to_json(),
                "files_written": t.files_written,
                "installed_checksum": t.installed_checksum,
                "discarded_paths": [box.fixture_path(p) for p in t.discarded_paths],
            }
            for t in report.targets
        ],
    }


def _expected_tree(root: Path) -> dict[str, bytes]:
    if not root.is_dir():
        return {}
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FixtureError(f"{path}: cannot read JSON ({exc})") from None


def _locks_json(root: Path) -> dict[str, Any]:
    if not root.is_dir():
        return {}
    return {p.name: _load_json(p) for p in sorted(root.iterdir()) if p.is_file()}


def run_install_e2e(case: Case) -> str | None:
    scope = parse_scope(case.input["scope"])
    tool = ToolIdentity(
        typed(case, case.input, "tool_name", str), typed(case, case.input, "tool_version", str)
    )
    force = typed(case, case.input, "force", bool)
    bundle = BundledSkill.from_directory(
        fixture_path(case, typed(case, case.input, "bundle_dir", str))
    )
    with tempfile.TemporaryDirectory(prefix="cmx-conformance-") as tmp:
        box = Sandbox.create(Path(tmp))
        box.seed_tree(fixture_path(case, typed(case, case.input, "pre_tree_dir", str)))
        box.seed_locks(fixture_path(case, typed(case, case.input, "pre_locks_dir", str)), scope)
        installer = SkillInstaller(tool, box.env)
        plan = installer.plan(bundle, scope, force=force)
        try:
            applied: dict[str, Any] = {
                "status": "applied",
                "error": None,
                "report": report_json(installer.apply(bundle, plan), box),
            }
        except BlockedPlanError as exc:
            applied = {"status": "blocked", "error": str(exc), "report": None}
        actual_report = {"plan": plan_json(plan, box), "apply": applied}
        actual_tree = box.snapshot(scope)
        actual_locks = {
            name: _load_json(path) for name, path in box.lock_paths(scope).items() if path.is_file()
        }
    expected = case.expected
    problems = [
        diff_tree(
            _expected_tree(fixture_path(case, typed(case, expected, "tree_dir", str))),
            actual_tree,
            "tree",
        ),
        diff_json(
            _locks_json(fixture_path(case, typed(case, expected, "locks_dir", str))),
            actual_locks,
            "locks: ",
        ),
        diff_json(
            _load_json(fixture_path(case, typed(case, expected, "report_path", str))),
            actual_report,
            "report: ",
        ),
    ]
    return "; ".join(p for p in problems if p) or None
