"""Without bubblewrap the sandbox tests skip with the reason, unless
CORTEXFS_REQUIRE_SANDBOX=1 (set by .ci/run) makes them fail."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[3]
TARGET = f"{HERE / 'test_sandbox_launch.py'}::test_pty_and_shared_umask"


def run_without_tools(require: str | None, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    if require is not None:
        env["CORTEXFS_REQUIRE_SANDBOX"] = require
    argv = [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", TARGET]
    return subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)


def test_missing_bubblewrap_skips_with_reason(tmp_path: Path) -> None:
    result = run_without_tools(None, tmp_path)
    assert result.returncode == 0, result.stdout
    assert "1 skipped" in result.stdout
    assert (
        "sandbox unavailable: bwrap, setpriv, prlimit, fusermount3 not installed" in result.stdout
    )


def test_missing_bubblewrap_fails_when_required(tmp_path: Path) -> None:
    result = run_without_tools("1", tmp_path)
    assert result.returncode == 1, result.stdout
    assert "CORTEXFS_REQUIRE_SANDBOX=1 but sandboxes are unavailable" in result.stdout
