"""Fixtures: a real FUSE mount of a temp storage dir, uid switching, an MCP test server."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from fake_mcp import CALC_SERVER
from warm_hosts import stop_warm_hosts
from world_runtime import Runtime, build_runtime, world_python

BIN = Path(sys.executable).parent
MOUNT_TIMEOUT = 15.0
OTHER_UID = 4242
THIRD_UID = 4343


def fuse_unavailable_reason() -> str | None:
    if not os.path.exists("/dev/fuse"):
        return "/dev/fuse does not exist"
    if shutil.which("fusermount3") is None:
        return "fusermount3 is not installed (apt-get install fuse3)"
    if os.geteuid() != 0:
        return "mount tests switch uids and need root"
    if world_python() is None:
        return "no Python 3.11+ that every uid can run (apt-get install python3)"
    try:
        import mfusepy  # noqa: F401
    except (ImportError, OSError) as exc:
        return f"libfuse3 is not loadable: {exc}"
    return None


def require_fuse() -> None:
    reason = fuse_unavailable_reason()
    if reason is None:
        return
    if os.environ.get("CORTEXFS_REQUIRE_FUSE") == "1":
        pytest.fail(f"CORTEXFS_REQUIRE_FUSE=1 but FUSE is unavailable: {reason}")
    pytest.skip(f"FUSE unavailable: {reason}")


@dataclass
class Mount:
    root: Path
    storage: Path
    proc: subprocess.Popen[bytes]
    log: Path

    def env(self, **extra: str) -> dict[str, str]:
        env = {
            "PATH": f"{BIN}:/usr/bin:/bin",
            "HOME": str(self.storage.parent / "home"),
            "XDG_CONFIG_HOME": str(self.storage.parent / "xdg-config"),
            "XDG_DATA_HOME": str(self.storage.parent / "xdg-data"),
            "CTX_ROOT": str(self.root),
            "LANG": "C.UTF-8",
        }
        env.update(extra)
        return env


def world_runner(base: Path) -> str:
    """The runner objects name: a world-readable copy under `base`, so other uids can
    execute objects whatever the checkout's location and permissions."""
    runtime = base / "runtime"
    if not runtime.exists():
        python = world_python()
        assert python is not None
        build_runtime(runtime, python)
    return str(runtime / "bin" / "cortexfs-object-runner")


def start_mount(base: Path, *extra: str) -> Mount:
    storage, root, log = base / "storage", base / "ctx", base / "mount.log"
    root.mkdir(parents=True, exist_ok=True)
    argv = [str(BIN / "cortexfs-mount"), "--source", str(storage), "--runner", world_runner(base)]
    if not storage.exists():
        argv.append("--init")
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*argv, *extra, str(root), "--foreground"],
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    deadline = time.monotonic() + MOUNT_TIMEOUT
    while time.monotonic() < deadline:
        try:
            if (root / "status").read_bytes() == b"ready\n":
                return Mount(root, storage, proc, log)
        except OSError:
            pass
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    stop_mount(Mount(root, storage, proc, log))
    pytest.fail(f"mount did not become ready: {log.read_text(errors='replace')}")


def lazy_unmount(root: Path) -> None:
    subprocess.run(["fusermount3", "-u", "-z", str(root)], capture_output=True, timeout=20)


def stop_mount(mount: Mount) -> int | None:
    """Unmount and reap the daemon; never hangs (lazy unmount and kill as fallbacks)."""
    subprocess.run(["fusermount3", "-u", str(mount.root)], capture_output=True, timeout=20)
    try:
        return mount.proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        mount.proc.kill()
        mount.proc.wait(timeout=10)
        lazy_unmount(mount.root)
        return None


@contextlib.contextmanager
def mounted() -> Iterator[Mount]:
    """pytest's tmp dirs are 0700; other uids must reach the mountpoint, so use /tmp."""
    require_fuse()
    base = Path(tempfile.mkdtemp(prefix="cortexfs-test-"))
    os.chmod(base, 0o755)
    mount = start_mount(base)
    try:
        yield mount
    finally:
        python = world_python()
        if python is not None and (base / "runtime").exists():
            stop_warm_hosts(Runtime(base / "runtime", python))  # else up 30 s past idle
        if mount.proc.poll() is None:
            stop_mount(mount)
        lazy_unmount(mount.root)
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="session")
def ctx_mount() -> Iterator[Mount]:
    with mounted() as mount:
        yield mount


@pytest.fixture
def fresh_mount() -> Iterator[Mount]:
    """A mount of its own, for tests that unmount or kill the daemon."""
    with mounted() as mount:
        yield mount


@pytest.fixture
def remount() -> Iterator[Callable[[Mount], Mount]]:
    """Mount the same storage again (after a crash); unmounted at the end of the test."""
    started: list[Mount] = []

    def again(old: Mount) -> Mount:
        mount = start_mount(old.storage.parent)
        started.append(mount)
        return mount

    yield again
    for mount in started:
        if mount.proc.poll() is None:
            stop_mount(mount)
        lazy_unmount(mount.root)


@contextlib.contextmanager
def listen_at(path: str) -> Iterator[socket.socket]:
    """A Unix socket this process listens on at `path`, as an agent supervisor does.
    Directories it had to create are removed again: /run/user/<uid> made here as root
    would keep that uid's own runtime out of it."""
    made = []
    directory = os.path.dirname(path)
    while not os.path.isdir(directory):
        made.append(directory)
        directory = os.path.dirname(directory)
    for directory in reversed(made):
        os.mkdir(directory)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(path)
        server.listen(8)
        yield server
    finally:
        server.close()
        os.unlink(path)
        for directory in made:
            with contextlib.suppress(OSError):  # another run's supervisor moved in
                os.rmdir(directory)


@pytest.fixture
def listening() -> Callable[[str], contextlib.AbstractContextManager[socket.socket]]:
    return listen_at


@pytest.fixture
def unique() -> str:
    return "t" + uuid.uuid4().hex[:10]


def errno_as(uid: int, action: Callable[[], object], groups: tuple[int, ...] = ()) -> int:
    """Run `action` in a forked child as `uid` (with supplementary `groups`); 0 on
    success, else the errno it raised."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        code = 0
        signal.alarm(20)  # a hung mount kills the child instead of the test run
        try:
            os.setgroups(list(groups))
            os.setgid(uid)
            os.setuid(uid)
            action()
        except OSError as exc:
            code = exc.errno or 254
        except BaseException:
            code = 255
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


@pytest.fixture
def as_uid() -> Callable[..., int]:
    return errno_as


@pytest.fixture(scope="session")
def mcp_server(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    path = tmp_path_factory.mktemp("mcp") / "calc_server.py"
    path.write_text(CALC_SERVER)
    return [sys.executable, str(path)]


def run_cmd(
    argv: list[str], env: dict[str, str], stdin: bytes = b"", timeout: float = 30
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(argv, input=stdin, capture_output=True, env=env, timeout=timeout)


@pytest.fixture
def run() -> Callable[..., subprocess.CompletedProcess[bytes]]:
    return run_cmd


def events(stdout: bytes) -> list[dict[str, object]]:
    return [json.loads(line) for line in stdout.decode().splitlines()]


@pytest.fixture
def parse_events() -> Callable[[bytes], list[dict[str, object]]]:
    return events
