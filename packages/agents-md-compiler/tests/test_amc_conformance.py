"""Differential replay: every scenario the reference 1.0.1 was run on, run again on ctxkit.

conformance/agents-md-compiler/fixtures/scenarios/*.json hold what the reference
did (exit codes, stdout, stderr, the sandbox tree afterwards); generate.py there
says how they were produced. Each scenario is rebuilt in a temp directory and its
CLI runs go through ctxkit in-process. Where ctxkit deliberately differs, the
difference is named in DEVIATIONS (and in the package README) and checked here in
its documented form, so a deviation can never widen silently.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from agents_md_compiler.seams import Seams

CONFORMANCE = Path(__file__).resolve().parents[3] / "conformance" / "agents-md-compiler"
sys.path.insert(0, str(CONFORMANCE))
import harness  # noqa: E402

CliRunner = Callable[[list[str], Seams], tuple[int, bytes, bytes]]
SCENARIOS = sorted((CONFORMANCE / "fixtures" / "scenarios").glob("*.json"))
PROG = "agents-md-compiler"

# Directories ctxkit creates 0700 all the way down (the reference: only the leaves).
PRIVATE_STATE_PREFIXES = ("home/.local", "xdg")
# Envelope fields ctxkit adds (the contract lets a minor release add optional fields).
CTXKIT_FIELDS = {"interrupted_journal", "plan"}
# init's example modules and manifest comments are ctxkit's own text.
SCAFFOLD_FILES = (
    "agents-md.toml",
    "agents-md.toml.lock.json",
    "modules/core.md",
    "modules/python.md",
)


def runner(cli_in_process: CliRunner) -> harness.Runner:
    """The harness's runner signature over the in-process CLI; --help exits via SystemExit."""

    def run(argv: list[str], cwd: str, env: Mapping[str, str]) -> tuple[int, bytes, bytes]:
        try:
            return cli_in_process(argv, Seams(environ=dict(env), cwd=lambda: cwd))
        except SystemExit as exc:
            return int(exc.code or 0), b"", b""

    return run


def _wants_json(argv: list[str]) -> bool:
    formats = [argv[i + 1] for i, word in enumerate(argv[:-1]) if word == "--format"]
    return bool(formats) and formats[-1] == "json"


def _strip_message(document: dict[str, Any]) -> dict[str, Any]:
    """error.message and verify-codex's failure are prose: compared by presence only."""
    doc = json.loads(json.dumps(document))
    if isinstance(doc.get("error"), dict):
        doc["error"]["message"] = bool(doc["error"].get("message"))
    if "failure" in doc:
        doc["failure"] = doc["failure"] is not None
    return doc


def _is_error(expected: Mapping[str, Any]) -> bool:
    if "json" in expected:
        return "error" in expected["json"]
    return expected["exit"] != 0 and expected.get("stdout") == ""


def compare_run(argv: list[str], expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    if expected["exit"] != actual["exit"]:
        problems.append(f"exit {actual['exit']} != reference {expected['exit']}")
    usage = "usage:" in expected["stderr"]
    if usage and expected.get("stdout") == "" and _wants_json(argv):
        # A9: a parse error under --format json still prints one UsageError envelope.
        doc = actual.get("json") or {}
        if doc.get("error", {}).get("kind") != "UsageError" or doc.get("ok") is not False:
            problems.append(f"A9: expected a UsageError envelope, got {actual}")
    elif "json" in expected:
        if "json" not in actual:
            problems.append(f"stdout is not one JSON object: {actual.get('stdout')!r}")
        else:
            want, got = _strip_message(expected["json"]), _strip_message(actual["json"])
            for key in CTXKIT_FIELDS - set(want):
                got.pop(key, None)
            for key in sorted(set(want) | set(got)):
                if want.get(key, "<absent>") != got.get(key, "<absent>"):
                    problems.append(
                        f"json[{key}] = {got.get(key, '<absent>')!r}, "
                        f"reference {want.get(key, '<absent>')!r}"
                    )
            if not actual.get("keys_sorted"):
                problems.append("JSON keys are not sorted")
    elif expected.get("stdout_b64", expected.get("stdout")) != actual.get(
        "stdout_b64", actual.get("stdout")
    ):
        want, got = expected.get("stdout"), actual.get("stdout")
        problems.append(f"stdout {got!r} != reference {want!r}")
    problems += _compare_stderr(argv, expected, actual, usage)
    return problems


def _compare_stderr(
    argv: list[str], expected: dict[str, Any], actual: dict[str, Any], usage: bool
) -> list[str]:
    if usage:
        return [] if actual["stderr"] else ["argparse error printed nothing on stderr"]
    want = expected["stderr"].splitlines()
    # The dry run's list of paths it would read and write is ctxkit's addition.
    got = [line for line in actual["stderr"].splitlines() if ": dry run: " not in line]
    if len(want) != len(got):
        return [f"stderr {got!r} != reference {want!r}"]
    problems = []
    for index, (w, g) in enumerate(zip(want, got, strict=True)):
        if w == g:
            continue
        prose = w.startswith(f"{PROG}: verify-codex: ")  # the failure text is prose too
        if (prose or _is_error(expected)) and index == len(want) - 1:
            prefix = ": ".join(w.split(": ")[:2]) + ": "
            if g.startswith(prefix):
                continue  # the error message: same prefix, ctxkit's own wording
        problems.append(f"stderr line {index}: {g!r} != reference {w!r}")
    return problems


def compare_tree(scenario_id: str, want: dict[str, str], got: dict[str, str]) -> list[str]:
    problems = []
    for path in sorted(set(want) | set(got)):
        w, g = want.get(path, "<absent>"), got.get(path, "<absent>")
        if w == g:
            continue
        if w.startswith("d ") and g == "d 0700" and path.startswith(PRIVATE_STATE_PREFIXES):
            continue
        scaffold = scenario_id.startswith("init-") and path.endswith(SCAFFOLD_FILES)
        if scaffold and w.split()[:2] == g.split()[:2]:
            continue  # same type and mode; the example text is ctxkit's own
        problems.append(f"tree {path}: {g} != reference {w}")
    return problems


def test_corpus_is_large_enough() -> None:
    assert len(SCENARIOS) >= 300
    meta = json.loads((CONFORMANCE / "fixtures" / "meta.json").read_text())
    assert meta["reference_version"] == "1.0.1"
    assert meta["scenarios"] == len(SCENARIOS)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_replay(path: Path, tmp_path: Path, cli_in_process: CliRunner) -> None:
    scenario = json.loads(path.read_text())
    observed = harness.run_scenario(scenario, tmp_path, runner(cli_in_process))
    problems: list[str] = []
    runs = [a for a in scenario["actions"] if a["op"] == "run"]
    if scenario.get("compare") == "exit":
        problems = [
            f"exit {g['exit']} != {w['exit']}"
            for w, g in zip(scenario["results"], observed["results"], strict=True)
            if w["exit"] != g["exit"]
        ]
    else:
        for index, (run, want, got) in enumerate(
            zip(runs, scenario["results"], observed["results"], strict=True)
        ):
            problems += [
                f"run {index} {run['argv']}: {p}" for p in compare_run(run["argv"], want, got)
            ]
        problems += compare_tree(scenario["id"], scenario["tree"], observed["tree"])
    assert not problems, "\n".join(problems)
