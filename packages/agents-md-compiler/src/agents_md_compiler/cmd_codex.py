"""verify-codex: static CURRENT first, then the runtime probe."""

from __future__ import annotations

import math

from agents_md_compiler.codex import CodexReport, verification_context, verify_codex
from agents_md_compiler.compile import load_and_compile
from agents_md_compiler.errors import STATE_EXIT_CODES, BundleState, UsageError
from agents_md_compiler.evaluate import evaluate
from agents_md_compiler.invocation import Invocation
from agents_md_compiler.outcome import Outcome, bundle_fields

STATIC_FAILURE = "static state is not CURRENT"


def parse_timeout(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        raise UsageError(f"--timeout {value!r} is not a number") from None
    if not math.isfinite(seconds) or seconds <= 0:
        raise UsageError("--timeout must be a positive number of seconds")
    return seconds


def report_fields(report: CodexReport) -> dict[str, object]:
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
    timeout = parse_timeout(inv.args.timeout)
    manifest_path = inv.manifest_path()
    bundle = load_and_compile(manifest_path, inv.seams.environ)
    lock_path = inv.lock_path(manifest_path)
    ev = evaluate(bundle, lock_path, inv.target_path(bundle.manifest))
    fields = bundle_fields(bundle, lock_path, ev.target_path, ev.target.sha256)
    if ev.state is not BundleState.CURRENT:
        report = CodexReport(
            verification_context(ev.target_path.resolved, inv.seams),
            None,
            markers_expected=2 * len(bundle.sources),
            failure=STATIC_FAILURE,
        )
        state: BundleState = ev.state
    else:
        cwd = inv.resolve_option("cwd")
        report = verify_codex(bundle, ev.target_path, cwd, timeout, inv.seams)
        state = BundleState.CURRENT if report.verified else BundleState.RUNTIME_UNVERIFIED
    outcome = Outcome(state, STATE_EXIT_CODES[state], fields | report_fields(report))
    outcome.detail = report.failure
    if report.verified:
        outcome.progress.append(
            f"codex {report.codex_version} sees the bundle ({report.context} context, "
            f"probe directory {report.probe_cwd})"
        )
    return outcome
