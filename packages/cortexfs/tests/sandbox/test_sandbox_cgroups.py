"""Every agent cgroup a launch creates is removed once empty: at stop, when a launch
fails half-way, and (for a supervisor that was SIGKILLed) by the next agent's start.
Each test creates and checks cgroups of its own only; others may belong to a
concurrent run."""

from __future__ import annotations

import os
import signal
import time
import uuid
from pathlib import Path

import pytest
from agent_cgroups import cgroup_dirs

from cortexfs.launch import cgroups
from cortexfs.launch.limits import Limits


def _host() -> cgroups.CgroupHost:
    host = cgroups.detect_cgroups()
    assert host is not None, "a root operator here has cgroups (see launch/host.py)"
    return host


def _procs(path: Path) -> list[int]:
    return [int(word) for word in (path / "cgroup.procs").read_text().split()]


def _wait(condition, seconds: float = 10) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_stop_removes_the_cgroup_in_every_hierarchy(world, make_agent) -> None:
    agent = make_agent()
    key = f"agent.{agent.name}"
    assert cgroup_dirs(key) == []
    agent.start("/bin/sh", options=("--no-workspace",))
    supervisor = agent.status()["pid"]
    running = cgroup_dirs(key)
    assert len(running) == len(_host().roots)
    assert all(supervisor in _procs(path) for path in running)
    assert agent.events("echo hi\n")[-1]["status"] == "ok"
    agent.stop()
    assert cgroup_dirs(key) == []


def test_a_killed_supervisors_cgroup_is_reaped_by_the_next_start(world, make_agent) -> None:
    killed, other = make_agent(), make_agent()
    key = f"agent.{killed.name}"
    killed.start("/bin/sh", options=("--no-workspace",))
    supervisor = killed.status()["pid"]
    os.kill(supervisor, signal.SIGKILL)
    _wait(lambda: not Path(f"/proc/{supervisor}").exists())
    left = cgroup_dirs(key)  # nothing could remove it: the crash this test is about
    assert len(left) == len(_host().roots)
    _wait(lambda: all(_procs(path) == [] for path in left))
    other.start("/bin/true", options=("--no-workspace",))
    assert cgroup_dirs(key) == []
    log = Path(f"/run/cortexfs/agent/{other.name}.log").read_text()
    assert f" {key}" in log.split("removed the empty cgroups of stopped agents:")[1].split("\n")[0]
    assert cgroup_dirs(f"agent.{other.name}") != []  # its own, running, is kept
    killed.start("/bin/true", options=("--no-workspace",))  # and the killed one starts again
    assert killed.status()["state"] == "running"


def test_a_running_agents_cgroup_is_not_reaped(world, make_agent) -> None:
    first, second = make_agent(), make_agent()
    first.start("/bin/sh", options=("--no-workspace",))
    second.start("/bin/true", options=("--no-workspace",))
    assert len(cgroup_dirs(f"agent.{first.name}")) == len(_host().roots)
    assert first.events("echo still\n")[-1]["status"] == "ok"


def test_a_launch_failing_half_way_removes_what_it_created(sandbox_tools, tmp_path) -> None:
    host = _host()
    if host.version != 1:
        pytest.skip("the half-way failure is made between two v1 hierarchies")
    key = "test." + uuid.uuid4().hex[:10]
    blocked = tmp_path / "not-a-hierarchy"
    blocked.write_text("")  # the second hierarchy's mkdir fails: ENOTDIR
    broken = cgroups.CgroupHost(1, (host.roots[0], ("pids", str(blocked))))
    with pytest.raises(NotADirectoryError):
        cgroups.create(broken, key, Limits())
    assert cgroup_dirs(key) == []
    made = cgroups.create(host, key, Limits())
    assert len(cgroup_dirs(key)) == len(host.roots)
    assert cgroups.remove(made)
    assert cgroup_dirs(key) == []
