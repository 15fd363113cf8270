"""The conformance runner over the committed fixtures, and its refusal to skip."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from cmx_core.conformance import run_directory
from cmx_core.conformance.__main__ import main

UPSTREAM_CASES = 59


def test_upstream_fixtures_all_pass_in_process(upstream_fixtures: Path) -> None:
    result = run_directory(upstream_fixtures)
    assert [str(f) for f in result.failures] == []
    assert result.passed == UPSTREAM_CASES
    assert result.summary() == f"{UPSTREAM_CASES} passed, 0 failed"


def test_extra_fixtures_all_pass_in_process(extra_fixtures: Path) -> None:
    result = run_directory(extra_fixtures)
    assert [str(f) for f in result.failures] == []
    assert result.passed > 40


def test_upstream_copy_is_byte_exact_with_shared_fixtures(upstream_fixtures: Path) -> None:
    shared = Path("/work/shared/conformance/cmx-core")
    if not shared.is_dir():  # CI clones carry only the committed copy
        return
    ours = {
        p.relative_to(upstream_fixtures): p.read_bytes()
        for p in upstream_fixtures.rglob("*")
        if p.is_file()
    }
    theirs = {p.relative_to(shared): p.read_bytes() for p in shared.rglob("*") if p.is_file()}
    assert ours == theirs


def _run_cli(*dirs: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "cmx_core.conformance", *map(str, dirs)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )


def test_cli_runs_both_directories_as_subprocess(
    upstream_fixtures: Path, extra_fixtures: Path
) -> None:
    proc = _run_cli(upstream_fixtures, extra_fixtures)
    extra = run_directory(extra_fixtures).passed
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == f"{UPSTREAM_CASES + extra} passed, 0 failed\n"


def _copy(tmp_path: Path, *categories: str) -> Path:
    upstream = Path(__file__).resolve().parents[3] / "conformance" / "cmx-core"
    root = tmp_path / "fixtures"
    for category in categories:
        shutil.copytree(upstream / category, root / category)
    return root


def test_broken_expected_bytes_fail_and_name_the_case(tmp_path: Path) -> None:
    root = _copy(tmp_path, "frontmatter", "checksum")
    expected = root / "frontmatter" / "crlf-line-endings" / "expected" / "SKILL.md"
    expected.write_bytes(expected.read_bytes().replace(b'"2.4.6"\n', b'"2.4.6"\r\n'))
    proc = _run_cli(root)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[-1] == "9 passed, 1 failed"
    assert lines[0].startswith("FAIL frontmatter/crlf-line-endings: bytes differ at offset")


def test_broken_lockfile_in_e2e_fails(tmp_path: Path) -> None:
    root = _copy(tmp_path, "install-e2e")
    lock = root / "install-e2e" / "fresh-install" / "expected" / "locks" / "cmx-lock.json"
    value = json.loads(lock.read_text())
    value["packages"]["fixture-tool"]["version"] = "2.4.7"
    lock.write_text(json.dumps(value))
    result = run_directory(root)
    assert result.passed == 5
    assert [f.label for f in result.failures] == ["install-e2e/fresh-install"]
    assert "locks: /cmx-lock.json/packages/fixture-tool/version" in result.failures[0].reason


def test_broken_tree_in_e2e_fails(tmp_path: Path) -> None:
    root = _copy(tmp_path, "install-e2e")
    tree = root / "install-e2e" / "skip-identical" / "expected" / "tree"
    (tree / "home/testuser/.claude/skills/fixture-tool/scripts/tool.py").unlink()
    result = run_directory(root)
    assert [f.label for f in result.failures] == ["install-e2e/skip-identical"]
    assert "tree: unexpected" in result.failures[0].reason


def test_unknown_category_fails_instead_of_skipping(tmp_path: Path, capsys: object) -> None:
    root = _copy(tmp_path, "paths")
    (root / "telemetry").mkdir()
    (root / "telemetry" / "manifest.json").write_text('{"schema_version": 1, "cases": []}')
    assert main([str(root)]) == 1
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert out.splitlines() == [
        "FAIL telemetry: unknown category, cannot execute",
        "28 passed, 1 failed",
    ]


def test_unknown_field_fails_the_case(tmp_path: Path) -> None:
    root = _copy(tmp_path, "version-guard")
    manifest = root / "version-guard" / "manifest.json"
    data = json.loads(manifest.read_text())
    data["cases"][2]["input"]["channel"] = "beta"
    data["cases"][4]["expected"]["reason"] = "x"
    manifest.write_text(json.dumps(data))
    result = run_directory(root)
    assert result.summary() == "9 passed, 2 failed"
    assert [str(f) for f in result.failures] == [
        "FAIL version-guard/older-update: cannot execute: unknown input field(s) ['channel']",
        "FAIL version-guard/equal-same-skip: cannot execute: unknown expected field(s) ['reason']",
    ]


def test_newer_agent_transform_field_is_not_silently_ignored(tmp_path: Path) -> None:
    root = _copy(tmp_path, "agent-transform")
    manifest = root / "agent-transform" / "manifest.json"
    data = json.loads(manifest.read_text())
    data["cases"][0]["expected"]["preserved_frontmatter"] = None
    manifest.write_text(json.dumps(data))
    result = run_directory(root)
    assert result.failed == 1 and "preserved_frontmatter" in result.failures[0].reason


def test_empty_or_missing_directory_is_a_failure(tmp_path: Path) -> None:
    assert main([str(tmp_path)]) == 1
    assert main([str(tmp_path / "absent")]) == 1
    assert main([]) == 2


def test_subset_of_categories_and_malformed_manifest(tmp_path: Path) -> None:
    root = _copy(tmp_path, "target-resolve")
    (root / "checksum").mkdir()
    (root / "checksum" / "manifest.json").write_text("{not json")
    result = run_directory(root)
    assert result.passed == 3
    assert len(result.failures) == 1
    assert result.failures[0].label == "checksum"
    assert "malformed JSON" in result.failures[0].reason
