"""One writer per scope: concurrent runs serialise; a held lock fails cleanly."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess

import pytest

from upskill.lifecycle.scopelock import ScopeBusy, ScopeLock


def test_two_concurrent_adds_serialise(cli, h, project, tmp_path):
    regs = []
    for n in range(2):
        reg = tmp_path / f"reg{n}"
        for i in range(30):
            h.write_item(reg, "rule", f"r{n}-{i}", "x\n")
        regs.append(reg)
    env = cli.env
    procs = [
        subprocess.Popen(
            [
                os.path.join(os.path.dirname(__import__("sys").executable), "upskill"),
                "add",
                str(reg),
            ],
            cwd=project,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for reg in regs
    ]
    results = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], results
    lock = json.loads((project / ".upskill-lock.json").read_text())
    assert len(lock["items"]) == 60
    assert cli.run("doctor", cwd=project).returncode == 0


@pytest.mark.black_box  # the lock is held by another process than the run's
def test_held_lock_fails_cleanly_and_writes_nothing(cli, h, project, registry):
    lock_path = project / ".upskill" / ".lock"
    lock_path.parent.mkdir()
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        before = h.snapshot(project)
        out = cli.run("add", str(registry), cwd=project, extra={"UPSKILL_LOCK_TIMEOUT": "0.3"})
        assert out.returncode == 1
        assert f"{lock_path}: another upskill process is writing this scope" in out.stderr
        assert h.snapshot(project) == before
    finally:
        os.close(fd)


def test_scope_lock_in_process(tmp_path):
    path = tmp_path / ".upskill" / ".lock"
    with ScopeLock(path, timeout=0):
        try:
            with ScopeLock(path, timeout=0.1):
                raise AssertionError("second lock acquired")
        except ScopeBusy as exc:
            assert exc.exit_code == 1
    with ScopeLock(path, timeout=0):
        pass
