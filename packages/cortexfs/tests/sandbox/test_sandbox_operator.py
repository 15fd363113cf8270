"""A non-root operator launches its own agent: no credential change, no cgroup (prlimit's
process limit instead), no pasta (it needs root here), runtime under /run/user/<uid>."""

from __future__ import annotations

import json
import os
import shutil
import uuid
from pathlib import Path

import pytest


@pytest.fixture
def user_run(world):
    """/run/user/<uid>, as a login session would provide it."""
    path = Path(f"/run/user/{world.uid}")
    created = not path.exists()
    if created:
        path.mkdir(parents=True, mode=0o700)
        os.chown(path, world.uid, world.gid)
    yield path
    if created:
        shutil.rmtree(path, ignore_errors=True)


def test_user_operator_starts_its_own_agent(world, user_run) -> None:
    name = "u" + uuid.uuid4().hex[:10]
    kind = f"u{world.uid}_{name}_t"
    rules = ("mount:fake read", "network:default connect", "session:default write")
    new = [
        "agent",
        "new",
        name,
        "--label",
        f"user_u:agent_r:{kind}:s0",
        "--mount",
        world.fake_row(),
        *[a for r in rules for a in ("--allow", f"allow {kind} {r}")],
    ]
    world.ok(*new, uid=world.uid)
    world.made.append(name)
    started = world.ok(
        "agent",
        "start",
        name,
        "--no-workspace",
        "--",
        "/opt/fake/fake-cli",
        "report",
        uid=world.uid,
    )
    socket_path = f"{user_run}/cortexfs/agent/{name}.sock"
    assert started.endswith(f"socket {socket_path}\n")
    try:
        assert os.readlink(world.ctx / "agent" / f"{name}.sock") == socket_path
        refused = world.ctx_cmd("agent", "stop", name, uid=4343)
        assert refused.returncode == 13
        sent = world.ctx_cmd("agent", "send", name, uid=world.uid)
        got = json.loads(sent.stdout)
        assert (got["uid"], got["gid"]) == (world.uid, world.gid)
        assert got["nproc"] == [256, 256]
        assert "/cortexfs/" not in got["cgroup"]
        assert got["interfaces"] == ["lo"]
        status = json.loads(world.ok("agent", "status", "--json", name, uid=world.uid))
        assert status["network"] == "granted, but pasta needs a root operator here"
        assert status["cgroup"] is None
        argv = status["argv"]
        assert argv[0] == "/usr/bin/prlimit" and "--nproc=256:256" in argv
        setpriv = argv.index("/usr/bin/setpriv")
        assert argv[setpriv + 1] == "--inh-caps=-all"  # no credential options: it holds none
    finally:
        world.ok("agent", "stop", name, uid=world.uid)
