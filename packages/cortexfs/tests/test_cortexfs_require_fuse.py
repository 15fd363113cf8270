"""Without FUSE the mount tests skip with the reason, unless CORTEXFS_REQUIRE_FUSE=1 fails them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
TARGET = f"{HERE / 'test_cortexfs_mount_tree.py'}::test_root_listing_is_frozen"


def run_without_fusermount(require: str | None, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    if require is not None:
        env["CORTEXFS_REQUIRE_FUSE"] = require
    argv = [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", TARGET]
    return subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)


def test_missing_fuse_skips_with_reason(tmp_path: Path) -> None:
    result = run_without_fusermount(None, tmp_path)
    assert result.returncode == 0, result.stdout
    assert "1 skipped" in result.stdout
    assert "FUSE unavailable: fusermount3 is not installed" in result.stdout


def test_missing_fuse_fails_when_required(tmp_path: Path) -> None:
    result = run_without_fusermount("1", tmp_path)
    assert result.returncode == 1, result.stdout
    assert "CORTEXFS_REQUIRE_FUSE=1 but FUSE is unavailable" in result.stdout
