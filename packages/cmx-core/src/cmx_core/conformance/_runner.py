"""Runs every case of every category under a directory; never skips what it cannot run."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cmx_core._errors import CmxError
from cmx_core.conformance import _disk_cases as disk_cases
from cmx_core.conformance import _pure_cases as pure_cases
from cmx_core.conformance import _sandbox_cases as sandbox_cases
from cmx_core.conformance import _text_cases as text_cases
from cmx_core.conformance._manifest import (
    Case,
    Fields,
    FixtureError,
    check_fields,
    load_cases,
    port_view,
)

Check = Callable[[Case], "str | None"]

CATEGORIES: dict[str, tuple[Fields, Check]] = {
    "checksum": (pure_cases.CHECKSUM, pure_cases.run_checksum),
    "frontmatter": (pure_cases.FRONTMATTER, pure_cases.run_frontmatter),
    "agent-transform": (pure_cases.AGENT_TRANSFORM, pure_cases.run_agent_transform),
    "version-guard": (pure_cases.VERSION_GUARD, pure_cases.run_version_guard),
    "paths": (pure_cases.PATHS, pure_cases.run_paths),
    "target-resolve": (sandbox_cases.TARGET_RESOLVE, sandbox_cases.run_target_resolve),
    "install-e2e": (sandbox_cases.INSTALL_E2E, sandbox_cases.run_install_e2e),
    "version-order": (text_cases.VERSION_ORDER, text_cases.run_version_order),
    "reconcile": (text_cases.RECONCILE, text_cases.run_reconcile),
    "whitespace": (text_cases.WHITESPACE, text_cases.run_whitespace),
    "white-space-set": (text_cases.WHITE_SPACE_SET, text_cases.run_white_space_set),
    "json-escape": (text_cases.JSON_ESCAPE, text_cases.run_json_escape),
    "checksum-tree": (disk_cases.CHECKSUM_TREE, disk_cases.run_checksum_tree),
    "lockfile-roundtrip": (disk_cases.LOCKFILE_ROUNDTRIP, disk_cases.run_lockfile_roundtrip),
}


@dataclass(frozen=True)
class Failure:
    label: str
    reason: str

    def __str__(self) -> str:
        return f"FAIL {self.label}: {self.reason}"


@dataclass(frozen=True)
class RunResult:
    passed: int
    failures: tuple[Failure, ...]

    @property
    def failed(self) -> int:
        return len(self.failures)

    @property
    def ok(self) -> bool:
        return not self.failures and self.passed > 0

    def summary(self) -> str:
        return f"{self.passed} passed, {self.failed} failed"


def _run_case(case: Case, fields: Fields, check: Check) -> str | None:
    try:
        case = port_view(case)
        check_fields(case, fields)
        return check(case)
    except FixtureError as exc:
        return f"cannot execute: {exc}"
    except (CmxError, OSError, ValueError) as exc:
        return f"raised {type(exc).__name__}: {exc}"


def run_directory(root: Path) -> RunResult:
    """Every subdirectory is a category; unknown ones fail rather than being skipped.

    Directories starting with `_` hold tooling (the fixture generator), not cases.
    """
    if not root.is_dir():
        return RunResult(0, (Failure(str(root), "not a directory"),))
    passed = 0
    failures: list[Failure] = []
    for category_dir in sorted(
        p for p in root.iterdir() if p.is_dir() and not p.name.startswith("_")
    ):
        spec = CATEGORIES.get(category_dir.name)
        if spec is None:
            failures.append(Failure(category_dir.name, "unknown category, cannot execute"))
            continue
        try:
            cases = load_cases(category_dir)
        except FixtureError as exc:
            failures.append(Failure(category_dir.name, f"cannot execute: {exc}"))
            continue
        seen: set[str] = set()
        for case in cases:
            if case.name in seen:
                failures.append(Failure(case.label, "duplicate case name"))
                continue
            seen.add(case.name)
            reason = _run_case(case, *spec)
            if reason is None:
                passed += 1
            else:
                failures.append(Failure(case.label, reason))
    if passed == 0 and not failures:
        failures.append(Failure(str(root), "no cases found"))
    return RunResult(passed, tuple(failures))
