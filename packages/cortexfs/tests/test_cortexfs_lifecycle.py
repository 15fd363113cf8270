"""Mount lifecycle: clean unmount, and a daemon killed mid-write never tears a control."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

WRITER = r"""
import os, sys
path, old, new = sys.argv[1], sys.argv[2].encode(), sys.argv[3].encode()
directory, base = os.path.split(path)
i = 0
while True:
    i += 1
    value = new if i % 2 else old
    temp = os.path.join(directory, f".{base}.tmp-{os.getpid()}-{i}-0")
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, value)
        os.fsync(fd)
        os.close(fd)
        os.rename(temp, path)
        # and a whole-file write, the other update path
        fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
        os.write(fd, value)
        os.close(fd)
    except OSError:
        sys.exit(0)
"""


def test_clean_unmount(fresh_mount) -> None:
    assert (fresh_mount.root / "status").read_bytes() == b"ready\n"
    done = subprocess.run(["fusermount3", "-u", str(fresh_mount.root)], timeout=20)
    assert done.returncode == 0
    assert fresh_mount.proc.wait(timeout=10) == 0
    assert os.listdir(fresh_mount.root) == []
    with open("/proc/self/mountinfo", encoding="utf-8") as handle:
        assert str(fresh_mount.root) not in handle.read()


def test_sigkill_mid_write_leaves_old_or_new(fresh_mount, remount) -> None:
    old = "user_u:agent_r:old_t:s0\n"
    new = "user_u:agent_r:" + "n" * 3000 + "_t:s0\n"
    os.mkdir(fresh_mount.root / "agent" / "victim.d")
    control = fresh_mount.root / "agent" / "victim.d" / "label"
    control.write_text(old)
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(control), old, new],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    backing = fresh_mount.storage / "agent" / "victim.d" / "label"
    try:
        deadline = time.monotonic() + 10
        seen = backing.read_text()
        while seen != new and time.monotonic() < deadline:
            time.sleep(0.01)
            seen = backing.read_text()
        # The writer is really replacing the control (one read decides: the writer
        # alternates old and new, so a second read may see old again).
        assert seen == new
        time.sleep(0.3)  # many more replacements are in flight
        os.kill(fresh_mount.proc.pid, signal.SIGKILL)
        fresh_mount.proc.wait(timeout=10)
        writer.wait(timeout=20)  # every further request fails with ENOTCONN
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.wait(timeout=10)
        subprocess.run(["fusermount3", "-u", "-z", str(fresh_mount.root)], timeout=20)
    value = backing.read_text()
    assert value in (old, new)
    # Mounting again sweeps the temp files the dead writers left, and keeps the value.
    again = remount(fresh_mount)
    controls = again.root / "agent" / "victim.d"
    assert [n for n in os.listdir(controls) if ".tmp-" in n] == []
    assert (controls / "label").read_text() == value
