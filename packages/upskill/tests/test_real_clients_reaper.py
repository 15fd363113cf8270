"""The real-client suite's clean-up: a detached daemon a client starts under a test HOME
is killed when the session ends (the Cline CLI's hub daemon outlived pytest)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from real_clients import reap_strays


def test_a_detached_process_under_a_test_home_is_killed(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": os.environ["PATH"], "HOME": str(home)}
    stray = subprocess.Popen(["sleep", "300"], env=env, start_new_session=True)
    bystander = subprocess.Popen(["sleep", "300"], env={**env, "HOME": "/nonexistent"})
    try:
        deadline = time.monotonic() + 5
        while not Path(f"/proc/{stray.pid}/cmdline").read_bytes().startswith(b"sleep"):
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert reap_strays(tmp_path) == [stray.pid]
        assert stray.wait(timeout=5) == -9
        assert bystander.poll() is None
    finally:
        for proc in (stray, bystander):
            proc.kill()
            proc.wait()
