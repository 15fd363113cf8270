"""Without FUSE (or bubblewrap) the mount (or sandbox) tests skip with the reason, unless
CORTEXFS_REQUIRE_FUSE=1 (or CORTEXFS_REQUIRE_SANDBOX=1) makes them fail. .ci/run sets both."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
CASES = {
    "fuse": (
        f"{HERE / 'test_cortexfs_mount_tree.py'}::test_root_listing_is_frozen",
        "CORTEXFS_REQUIRE_FUSE",
        "FUSE unavailable: fusermount3 is not installed",
        "CORTEXFS_REQUIRE_FUSE=1 but FUSE is unavailable",
    ),
    "sandbox": (
        f"{HERE / 'sandbox' / 'test_sandbox_launch.py'}::test_pty_and_shared_umask",
        "CORTEXFS_REQUIRE_SANDBOX",
        "sandbox unavailable: bwrap, setpriv, prlimit, fusermount3 not installed",
        "CORTEXFS_REQUIRE_SANDBOX=1 but sandboxes are unavailable",
    ),
}


def run_without_tools(case: str, require: str | None, tmp_path: Path) -> str:
    """pytest on one test with an empty PATH; returns its output, checked for the code."""
    target, variable, _, _ = CASES[case]
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    if require is not None:
        env[variable] = require
    argv = [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", target]
    result = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == (1 if require == "1" else 0), result.stdout
    return result.stdout


@pytest.mark.parametrize("case", sorted(CASES))
def test_missing_tools_skip_with_reason(case: str, tmp_path: Path) -> None:
    out = run_without_tools(case, None, tmp_path)
    assert "1 skipped" in out
    assert CASES[case][2] in out


@pytest.mark.parametrize("case", sorted(CASES))
def test_missing_tools_fail_when_required(case: str, tmp_path: Path) -> None:
    assert CASES[case][3] in run_without_tools(case, "1", tmp_path)
