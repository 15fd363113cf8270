"""verify-codex: prove the rendered bytes appear in Codex's model-visible startup input."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from agents_md_compiler.errors import UsageError
from agents_md_compiler.models import DEFAULT_LIMITS, BundleLimits, CompiledBundle, PathPair
from agents_md_compiler.paths import OVERRIDE_NAME, TARGET_NAME, codex_home, is_within
from agents_md_compiler.rendering import begin_marker, end_marker, generated_line
from agents_md_compiler.seams import RunTimeout, Seams

PROBE_PROMPT = "agents-md-compiler runtime visibility probe"
CAPABILITY_TIMEOUT = 60.0
SENTINEL_MIN_CHARS = 24


@dataclass(frozen=True)
class CodexReport:
    context: str
    probe_cwd: str | None
    codex_path: str | None = None
    codex_version: str | None = None
    capability_present: bool = False
    markers_expected: int = 0
    markers_found: int = 0
    sentinels_expected: int = 0
    sentinels_found: int = 0
    probe_command: list[str] = field(default_factory=list)
    failure: str | None = None

    @property
    def verified(self) -> bool:
        return self.failure is None


@dataclass(frozen=True)
class Expectations:
    header: str
    markers: tuple[str, ...]
    sentinels: tuple[str, ...]

    def all(self) -> tuple[str, ...]:
        return (self.header, *self.markers, *self.sentinels)


def expectations(bundle: CompiledBundle) -> Expectations:
    markers: list[str] = []
    for source in bundle.sources:
        spec = source.spec
        markers.append(begin_marker(spec.id, source.sha256, source.size_bytes).decode())
        markers.append(end_marker(spec.id).decode())
    rendered = bundle.rendered.decode("utf-8")
    chosen = (
        [bundle.sources[0]] if len(bundle.sources) == 1 else [bundle.sources[0], bundle.sources[-1]]
    )
    sentinels = [s for s in (_sentinel(c.content.decode("utf-8"), rendered) for c in chosen) if s]
    return Expectations(generated_line(2).decode(), tuple(markers), tuple(sentinels))


def _sentinel(content: str, rendered: str) -> str | None:
    for line in content.split("\n"):
        stripped = line.strip()
        long_enough = len(stripped) >= SENTINEL_MIN_CHARS
        if long_enough and not stripped.startswith("<!--") and rendered.count(stripped) == 1:
            return stripped
    return None


def verification_context(target: str, seams: Seams) -> str:
    home = codex_home(seams.environ, seams.cwd())
    global_paths = {str(Path(home, TARGET_NAME)), str(Path(home, OVERRIDE_NAME))}
    return "global" if target in global_paths else "project"


def verify_codex(
    bundle: CompiledBundle,
    target: PathPair,
    cwd: PathPair | None,
    timeout: float,
    seams: Seams,
    limits: BundleLimits = DEFAULT_LIMITS,
) -> CodexReport:
    context = verification_context(target.resolved, seams)
    if context == "global":
        if cwd is not None:
            raise UsageError("--cwd is not accepted when the target is the global Codex AGENTS.md")
        with tempfile.TemporaryDirectory(prefix="amc-probe-") as probe_dir:
            return _verify(bundle, context, probe_dir, timeout, seams, limits)
    parent = str(Path(target.resolved).parent)
    probe_dir = parent if cwd is None else cwd.resolved
    if not is_within(probe_dir, parent):
        raise UsageError(f"--cwd {probe_dir} is not within the target directory {parent}")
    return _verify(bundle, context, probe_dir, timeout, seams, limits)


def _verify(
    bundle: CompiledBundle,
    context: str,
    probe_dir: str,
    timeout: float,
    seams: Seams,
    limits: BundleLimits,
) -> CodexReport:
    expected = expectations(bundle)
    report = CodexReport(
        context,
        probe_dir,
        markers_expected=len(expected.markers) + 1,  # the header marker, then begin/end per module
        sentinels_expected=len(expected.sentinels),
    )
    codex = seams.which("codex", seams.environ)
    if codex is None:
        return _fail(report, "EXECUTABLE_MISSING: codex was not found on PATH", ["codex"])
    report = _with(report, codex_path=codex)
    version_argv = [codex, "--version"]
    version = _run(seams, version_argv, None, CAPABILITY_TIMEOUT)
    if version is None or version[0] != 0:
        return _fail(report, "VERSION_FAILED: codex --version did not succeed", version_argv)
    report = _with(report, codex_version=version[1].decode("utf-8", "replace").strip())
    help_argv = [codex, "debug", "prompt-input", "--help"]
    capability = _run(seams, help_argv, None, CAPABILITY_TIMEOUT)
    if capability is None or capability[0] != 0:
        return _fail(
            report, "CAPABILITY_MISSING: codex debug prompt-input is not available", help_argv
        )
    probe = [codex, "debug", "prompt-input", PROBE_PROMPT]
    report = _with(report, capability_present=True, probe_command=probe)
    if any(s in item for s in expected.all() for item in (*probe, probe_dir, PROBE_PROMPT)):
        return _fail(
            report, "PROBE_CONTAMINATED: the probe argv or directory contains an expected string"
        )
    if not Path(probe_dir).is_dir():
        return _fail(
            report, "PROBE_DIRECTORY_MISSING: the Codex startup directory is not a directory"
        )
    return _inspect(report, expected, _run(seams, probe, probe_dir, timeout), limits)


def _inspect(
    report: CodexReport,
    expected: Expectations,
    outcome: tuple[int, bytes] | None,
    limits: BundleLimits,
) -> CodexReport:
    if outcome is None:
        return _fail(report, "PROBE_TIMEOUT: codex debug prompt-input exceeded the deadline")
    code, stdout = outcome
    if code != 0:
        return _fail(report, f"PROBE_FAILED: codex debug prompt-input exited {code}")
    if len(stdout) > limits.max_probe_output_bytes:
        return _fail(report, "PROBE_OUTPUT_TOO_LARGE: prompt input exceeds the size limit")
    try:
        document = json.loads(stdout.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return _fail(report, "PROBE_NOT_JSON: prompt input is not JSON")
    strings = list(_strings(document))

    def count(needle: str) -> int:
        return sum(s.count(needle) for s in strings)

    markers = sum(1 for m in expected.markers if count(m) == 1) + (count(expected.header) >= 1)
    sentinels = sum(1 for s in expected.sentinels if count(s) >= 1)
    report = _with(report, markers_found=markers, sentinels_found=sentinels)
    if count(expected.header) < 1:
        return _fail(report, "MARKERS_MISSING: the generated header marker is absent")
    if markers != len(expected.markers) + 1:
        return _fail(report, "MARKERS_MISSING: a module marker is absent or repeated")
    if sentinels != len(expected.sentinels):
        return _fail(report, "SENTINELS_MISSING: a module content sentinel is absent")
    return report


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _run(
    seams: Seams, argv: list[str], cwd: str | None, timeout: float
) -> tuple[int, bytes] | None:
    try:
        result = seams.runner(argv, cwd, timeout, seams.environ)
    except RunTimeout:
        return None
    except OSError:
        return (127, b"")
    return result.returncode, result.stdout


def _with(report: CodexReport, **changes: Any) -> CodexReport:
    return replace(report, **changes)


def _fail(report: CodexReport, failure: str, command: list[str] | None = None) -> CodexReport:
    """A failed verification reports no partial findings, only what was expected and
    the argument vector of the step that failed."""
    return _with(
        report,
        failure=failure,
        codex_path=None,
        codex_version=None,
        capability_present=False,
        markers_found=0,
        sentinels_found=0,
        probe_command=report.probe_command if command is None else command,
    )
