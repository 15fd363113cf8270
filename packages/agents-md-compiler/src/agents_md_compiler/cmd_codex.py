"""verify-codex: static CURRENT first, then the runtime probe."""

from __future__ import annotations

import math
from pathlib import Path

from agents_md_compiler.cmd_static import evaluation, report_fields
from agents_md_compiler.codex import CodexReport, verification_context, verify_codex
from agents_md_compiler.errors import STATE_EXIT_CODES, BundleState, UsageError
from agents_md_compiler.invocation import Invocation
from agents_md_compiler.outcome import Outcome
from agents_md_compiler.paths import is_within

STATIC_FAILURE = "static state is not CURRENT"


def check_timeout(seconds: float) -> float:
    if not math.isfinite(seconds) or seconds <= 0:
        raise UsageError("--timeout must be a positive number of seconds")
    return seconds


def report_payload(report: CodexReport) -> dict[str, object]:
    return {
        "codex_path": report.codex_path,
        "codex_version": report.codex_version,
        "capability_present": report.capability_present,
        "markers_found": report.markers_found,
        "markers_expected": report.markers_expected,
        "sentinels_found": report.sentinels_found,
        "sentinels_expected": report.sentinels_expected,
        "probe_command": report.probe_command,
        "probe_cwd": report.probe_cwd,
        "verification_context": report.context,
        "failure": report.failure,
    }


def cmd_verify_codex(inv: Invocation) -> Outcome:
    timeout = check_timeout(inv.args.timeout)
    ev = evaluation(inv)
    context = verification_context(ev.target_path.resolved, inv.seams)
    cwd = inv.resolve_option("cwd")
    parent = str(Path(ev.target_path.resolved).parent)
    if context == "global":
        if cwd is not None:
            raise UsageError("--cwd cannot be used with the active global target")
        probe_cwd = None
    else:
        probe_cwd = parent if cwd is None else cwd.resolved
        if not is_within(probe_cwd, parent):
            raise UsageError(f"--cwd must be {parent} or one of its descendants")
    fields = report_fields(ev)
    if ev.state is not BundleState.CURRENT:
        return Outcome.report(
            ev.state,
            **fields,
            capability_present=False,
            failure=STATIC_FAILURE,
            probe_cwd=probe_cwd,
            verification_context=context,
        )
    report = verify_codex(ev.bundle, ev.target_path, cwd, timeout, inv.seams)
    payload = report_payload(report)
    if report.failure is not None and context == "global":
        payload["probe_cwd"] = None  # the disposable directory is gone
    state = BundleState.CURRENT if report.verified else BundleState.RUNTIME_UNVERIFIED
    outcome = Outcome(state, STATE_EXIT_CODES[state], fields | payload)
    if report.failure is not None:
        outcome.text_diagnostics.append(report.failure)
    else:
        outcome.notes.append(
            f"{report.codex_version} exposed all {report.markers_found} markers and "
            f"{report.sentinels_found} content sentinels"
        )
    return outcome
