"""ctxterm on its own: exact argv, exit status, umask, its own process group, signals
forwarded to the group with SIGKILL after the grace period, and a PTY when asked."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

CTXTERM = [sys.executable, "-c", "import sys; from cortexfs.ctxterm import main; sys.exit(main())"]


def ctxterm(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*CTXTERM, *args], input=stdin, capture_output=True, timeout=30)


def test_status_umask_and_group() -> None:
    assert ctxterm("--", "/bin/sh", "-c", "exit 7").returncode == 7
    assert ctxterm("--", "/bin/sh", "-c", "kill -9 $$").returncode == 137
    probe = "import os; print(oct(os.umask(0)), os.getpgrp() == os.getpid())"
    done = ctxterm("--umask", "0027", "--", sys.executable, "-c", probe)
    assert done.stdout == b"0o27 True\n"
    missing = ctxterm("--", "/nonexistent/cli")
    assert (missing.returncode, missing.stderr) == (
        127, b"ctxterm: /nonexistent/cli: No such file or directory\n",
    )  # fmt: skip


@pytest.mark.parametrize(
    "args", [(), ("/bin/true",), ("--umask", "9x", "--", "/bin/true"), ("--",)]
)
def test_usage_errors(args: tuple[str, ...]) -> None:
    assert ctxterm(*args).returncode == 2


def _started(tmp_path: Path, script: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([*CTXTERM, "--", "/bin/sh", "-c", script], stdout=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while not (tmp_path / "ready").exists():
        assert time.monotonic() < deadline
        time.sleep(0.02)
    return proc


def test_sigterm_reaches_the_whole_group(tmp_path: Path) -> None:
    script = (
        f"trap 'echo term > {tmp_path}/trapped; exit 3' TERM; "
        f"sleep 30 & echo $! > {tmp_path}/child; touch {tmp_path}/ready; wait"
    )
    proc = _started(tmp_path, script)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(20) == 3
    assert (tmp_path / "trapped").read_text() == "term\n"
    child = int((tmp_path / "child").read_text())
    time.sleep(0.1)
    assert not Path(f"/proc/{child}").exists() or b") Z" in Path(f"/proc/{child}/stat").read_bytes()


def test_a_group_that_ignores_sigterm_is_killed(tmp_path: Path) -> None:
    proc = _started(tmp_path, f"trap '' TERM; touch {tmp_path}/ready; sleep 30")
    started = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(20) == 128 + signal.SIGKILL
    assert time.monotonic() - started >= 1.5


def test_pty_mode() -> None:
    probe = "import os, sys; print(os.isatty(0), os.isatty(1)); print('got', input())"
    done = ctxterm("--pty", "--", sys.executable, "-c", probe, stdin=b"hello\n")
    assert done.returncode == 0
    lines = done.stdout.replace(b"\r\n", b"\n").splitlines()
    assert b"True True" in lines and b"got hello" in lines
