"""Real sandboxes: a world-readable copy of the package as the runtime, a mount whose
objects name it, fake hosted CLIs and tools, and agents started with `ctx agent start`.

Everything another uid executes lives in a world-readable temp directory (the runtime
copy, a system Python, the fakes), so the tests do not depend on where the repository
is cloned or which interpreter runs pytest.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from agent_cgroups import cgroup_dirs
from warm_hosts import stop_warm_hosts
from world_runtime import Runtime, build_runtime, world_python

AGENT_UID = 4242
AGENT_GID = 4242
EXTRA_GID = 4300
TOOLS = ("bwrap", "setpriv", "prlimit", "fusermount3")
# Every agent made here may record, continue and replay its `default` session (policy);
# tests of other sessions grant them themselves.
SESSION_RULES = ("session:default write", "session:default resume", "session:default read")
MOUNT_BIN = Path(sys.executable).parent / "cortexfs-mount"
HERE = Path(__file__).resolve().parent


def sandbox_unavailable_reason() -> str | None:
    if os.geteuid() != 0:
        return "sandbox tests start agents as other uids and need root"
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        return f"{', '.join(missing)} not installed (apt-get install bubblewrap util-linux fuse3)"
    if not os.path.exists("/dev/fuse"):
        return "/dev/fuse does not exist"
    if world_python() is None:
        return "no Python 3.11+ that every uid can run (apt-get install python3)"
    probe = subprocess.run(
        ["setpriv", "--reuid", str(AGENT_UID), "--regid", str(AGENT_GID), "--clear-groups",
         "bwrap", "--ro-bind", "/", "/", "--unshare-user", "--unshare-pid", "true"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if probe.returncode != 0:
        return f"bubblewrap cannot create namespaces here: {probe.stderr.strip()}"
    return None


def require_sandbox() -> None:
    reason = sandbox_unavailable_reason()
    if reason is None:
        return
    if os.environ.get("CORTEXFS_REQUIRE_SANDBOX") == "1":
        pytest.fail(f"CORTEXFS_REQUIRE_SANDBOX=1 but sandboxes are unavailable: {reason}")
    pytest.skip(f"sandbox unavailable: {reason}")


@pytest.fixture
def sandbox_tools() -> None:
    """For tests that run bubblewrap themselves, without a world."""
    require_sandbox()


@dataclass
class World:
    """The runtime, a mount, the fakes and a workspace, under one world-readable dir."""

    base: Path
    runtime: Runtime
    ctx: Path
    storage: Path
    fakes: Path
    workspace: Path
    started: list[str] = field(default_factory=list)
    made: list[str] = field(default_factory=list)
    uid: int = AGENT_UID
    gid: int = AGENT_GID
    extra_gid: int = EXTRA_GID

    def fake_row(self) -> str:
        """The mount row that shows the fakes at /opt/fake (policy: mount:fake read)."""
        return f"{self.fakes}:/opt/fake:ro"

    def env(self, **extra: str) -> dict[str, str]:
        return {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "HOME": str(self.base),
                "CTX_ROOT": str(self.ctx), **extra}  # fmt: skip

    def ctx_cmd(self, *args: str, stdin: bytes = b"", cwd: Path | None = None,
                timeout: float = 60, uid: int | None = None,
                ) -> subprocess.CompletedProcess[bytes]:  # fmt: skip
        who = {} if uid is None else {"user": uid, "group": uid, "extra_groups": []}
        return subprocess.run(
            [self.runtime.ctx, *args], input=stdin, capture_output=True, env=self.env(),
            cwd=cwd or self.workspace, timeout=timeout, check=False, **who,
        )  # fmt: skip

    def ok(self, *args: str, **kwargs: Any) -> str:
        result = self.ctx_cmd(*args, **kwargs)
        assert result.returncode == 0, (args, result.stdout, result.stderr)
        return result.stdout.decode()


FAKE_CLI = (HERE / "fake_cli.py").read_text()
FAKE_TOOL = (HERE / "fake_tool.py").read_text()


@pytest.fixture(scope="session")
def world() -> Iterator[World]:
    require_sandbox()
    python = world_python()
    assert python is not None
    base = Path(tempfile.mkdtemp(prefix="cortexfs-sandbox-"))
    base.chmod(0o755)
    runtime = build_runtime(base / "runtime", python)
    fakes = base / "fakes"
    fakes.mkdir(mode=0o755)
    for name, text in (("fake-cli", FAKE_CLI), ("fake-tool", FAKE_TOOL)):
        (fakes / name).write_text(f"#!{python}\n{text}")
        (fakes / name).chmod(0o755)
    workspace = base / "workspace"
    workspace.mkdir(mode=0o777)
    workspace.chmod(0o777)
    ctx, storage = base / "ctx", base / "storage"
    ctx.mkdir()
    storage.mkdir(mode=0o700)
    mounted = subprocess.run(
        [str(MOUNT_BIN), "--source", str(storage), "--runner", runtime.runner, str(ctx)],
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    assert mounted.returncode == 0, mounted.stderr
    here = World(base, runtime, ctx, storage, fakes, workspace)
    try:
        yield here
    finally:
        stopping = [
            subprocess.Popen([runtime.ctx, "agent", "stop", name], env=here.env(),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for name in here.started
        ]  # fmt: skip
        for proc in stopping:
            proc.wait(timeout=30)
        stop_warm_hosts(runtime)  # they outlive the agents (idle: 30 s and more)
        for name in here.made:  # what a stopped agent leaves in /run: its lock and log
            for suffix in (".lock", ".log"):
                Path(f"/run/cortexfs/agent/{name}{suffix}").unlink(missing_ok=True)
        subprocess.run(["fusermount3", "-u", str(ctx)], capture_output=True, check=False)
        subprocess.run(["fusermount3", "-u", "-z", str(ctx)], capture_output=True, check=False)
        shutil.rmtree(base, ignore_errors=True)
    leftover = [name for name in here.made if cgroup_dirs(f"agent.{name}")]
    assert not leftover, f"agents left cgroups behind: {leftover}"


@dataclass
class Agent:
    world: World
    name: str
    type: str

    @property
    def controls(self) -> Path:
        return self.world.ctx / "agent" / f"{self.name}.d"

    def start(self, *command: str, options: tuple[str, ...] = ()) -> str:
        argv = ["agent", "start", self.name, *options]
        out = self.world.ok(*argv, *(["--", *command] if command else []))
        self.world.started.append(self.name)
        return out

    def policy(self, *rules: str) -> bytes:
        """The policy text granting `rules` (class:name perm) and the default session."""
        return "".join(f"allow {self.type} {rule}\n" for rule in (*rules, *SESSION_RULES)).encode()

    def stop(self) -> str:
        out = self.world.ok("agent", "stop", self.name)
        with contextlib.suppress(ValueError):
            self.world.started.remove(self.name)
        return out

    def send(self, text: str = "", *options: str) -> subprocess.CompletedProcess[bytes]:
        return self.world.ctx_cmd(
            "agent", "send", "--json", *options, self.name, stdin=text.encode()
        )

    def events(self, text: str = "", *options: str) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.send(text, *options).stdout.splitlines()]

    def report(self, text: str = "", *options: str) -> dict[str, Any]:
        """The fake CLI's JSON report from one turn's output."""
        events = self.events(text, *options)
        assert events[-1]["status"] == "ok", events
        output = "".join(e["text"] for e in events if e["type"] == "delta")
        return json.loads(output)

    def status(self) -> dict[str, Any]:
        return json.loads(self.world.ok("agent", "status", "--json", self.name))


@pytest.fixture
def make_agent(world: World) -> Callable[..., Agent]:
    """Create a root-owned agent run as AGENT_UID with the given policy lines."""

    def make(*allow: str, uid: int = AGENT_UID, extra: tuple[str, ...] = ()) -> Agent:
        name = "s" + uuid.uuid4().hex[:10]
        kind = f"{name}_t"
        rules = [a.format(t=kind) for a in (*allow, *SESSION_RULES)]
        args = ["agent", "new", name, "--uid", str(uid), "--gid", str(AGENT_GID),
                "--label", f"user_u:agent_r:{kind}:s0", *extra]  # fmt: skip
        for rule in rules:
            args += ["--allow", f"allow {kind} {rule}"]
        world.ok(*args)
        world.made.append(name)
        return Agent(world, name, kind)

    return make
