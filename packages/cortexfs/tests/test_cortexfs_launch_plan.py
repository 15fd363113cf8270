"""The launch plan is pure: agent controls + request + host facts -> one exact argv."""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from cortexfs.errors import BadInput, Denied, Unavailable
from cortexfs.launch.chain import HostTools, SystemView
from cortexfs.launch.host import is_storage, runtime_roots, unreachable
from cortexfs.launch.identity import Identity, Operator
from cortexfs.launch.limits import Limits, prlimit_args
from cortexfs.launch.mounts import PathFacts
from cortexfs.launch.plan import HostFacts, LaunchRequest, plan_launch
from cortexfs.launch.spec import AgentRef, parse_spec

ROOT = Operator(0, 0, frozenset({0}))
TOOLS = HostTools("/usr/bin/bwrap", "/usr/bin/setpriv", "/usr/bin/prlimit", "/usr/bin/pasta")
VIEW = SystemView((("/bin", "usr/bin"), ("/lib", "usr/lib"), ("/sbin", None)), 1 << 20)


def controls(**overrides: str) -> dict[str, str]:
    base = {
        "owner": "0\n", "uid": "4242\n", "gid": "4242\n", "groups": "4300\n",
        "label": "user_u:agent_r:coder_t:s0\n", "perm": "r-x\n", "iso": "1\n",
        "policy": "allow coder_t mount:workspace write\nallow coder_t mount:tools read\n",
        "mount": "/srv/tools\t/opt/tools\trw\tnosuid,nodev\n", "env": "EDITOR=true\n",
    }  # fmt: skip
    return base | overrides


def spec(**overrides: str):
    return parse_spec(AgentRef("coder", "/agent/coder"), controls(**overrides))


def in_storage(path: str) -> bool:
    return path.startswith("/var/lib/cfs")


def facts(**overrides: object) -> HostFacts:
    base = HostFacts(
        tools=TOOLS, view=VIEW, tun_usable=True, cgroup=True, runtime_roots=("/opt/cfs",),
        user_name=lambda uid: f"u{uid}", paths=PathFacts(lambda path: path, in_storage),
        unreachable=lambda path, identity: None,
    )  # fmt: skip
    return replace(base, **overrides)  # type: ignore[arg-type]


def plan(agent=None, request=None, operator=ROOT, host=None, cwd=None):
    return plan_launch(
        agent or spec(), request or LaunchRequest(("codex", "--full-auto"), False, "/home/me/proj"),
        operator, {"LANG": "C.UTF-8", "SECRET": "x"}, "/ctx-host", "/run/b.sock", host or facts(),
        cwd,
    )  # fmt: skip


def test_exact_chain_without_network() -> None:
    launch = plan()
    assert list(launch.argv) == [
        "/usr/bin/prlimit", "--nofile=4096:4096", "--core=0:0", "--",
        "/usr/bin/setpriv", "--reuid", "4242", "--regid", "4242", "--groups", "4300",
        "--inh-caps=-all", "--no-new-privs", "--pdeathsig", "KILL", "--",
        "/usr/bin/bwrap", "--die-with-parent", "--unshare-pid", "--unshare-uts", "--unshare-ipc",
        "--hostname", "cortexfs", "--unshare-user", "--disable-userns", "--cap-drop", "ALL",
        "--unshare-net", "--clearenv",
        "--setenv", "LANG", "C.UTF-8", "--setenv", "PATH", "/ctx/bin:/usr/local/bin:/usr/bin:/bin",
        "--setenv", "HOME", "/tmp", "--setenv", "USER", "u4242", "--setenv", "LOGNAME", "u4242",
        "--setenv", "CTX_ROOT", "/ctx", "--setenv", "CTX_HOME", "/ctx/home/4242",
        "--setenv", "CTX_PATH", "/ctx/tool:/ctx/home/4242/tool", "--setenv", "CTX_AGENT", "coder",
        "--setenv", "EDITOR", "true",
        "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc",
        "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
        "--ro-bind", "/sbin", "/sbin",
        "--proc", "/proc", "--dev", "/dev",
        "--perms", "1777", "--size", str(512 << 20), "--tmpfs", "/tmp",
        "--ro-bind", "/opt/cfs", "/opt/cfs",
        "--ro-bind", "/run/b.sock", "/run/cortexfs/broker.sock",
        "--bind", "/ctx-host", "/ctx",
        "--ro-bind", "/ctx-host/bin", "/ctx/bin", "--ro-bind", "/ctx-host/model", "/ctx/model",
        "--ro-bind", "/ctx-host/tool", "/ctx/tool",
        "--ro-bind", "/ctx-host/channel", "/ctx/channel",
        "--ro-bind", "/ctx-host/home/4242", "/ctx/home/4242",
        "--bind", "/ctx-host/home/4242/agent/coder", "/ctx/home/4242/agent/coder",
        "--perms", "0755", "--tmpfs", "/ctx/agent",
        "--ro-bind", "/ctx-host/agent/coder", "/ctx/agent/coder",
        "--ro-bind", "/ctx-host/agent/coder.d", "/ctx/agent/coder.d",
        "--remount-ro", "/ctx/agent",
        "--perms", "0755", "--tmpfs", "/ctx/shared", "--remount-ro", "/ctx/shared",
        "--bind-fd", "/home/me/proj", "/workspace",
        "--ro-bind-fd", "/srv/tools", "/opt/tools",
        "--remount-ro", "/", "--chdir", "/workspace", "--",
        "/ctx/bin/ctxterm", "--umask", "0077", "--", "codex", "--full-auto",
    ]  # fmt: skip
    # bubblewrap's options (handed over through --args) and the sources pinned by fd
    start, end = launch.bwrap
    assert (launch.argv[start], launch.argv[end]) == ("/usr/bin/bwrap", "--")
    assert [launch.argv[i] for i in launch.pins] == ["/home/me/proj", "/srv/tools"]
    assert launch.identity == Identity(4242, 4242, (4300,), 0o077)
    assert launch.mounts.notes == ("/opt/tools: read-only (policy grants no mount:tools write)",)
    assert launch.network.reason == "policy grants no network:default connect"


def test_network_grant_wraps_the_chain_in_pasta() -> None:
    granted = spec(policy="allow coder_t network:default connect\n")
    launch = plan(granted)
    assert list(launch.argv[:19]) == [
        "/usr/bin/pasta", "--runas", "0", "--netns-only", "-f", "-q", "--config-net",
        "--no-map-gw", "--no-icmp", "-t", "none", "-u", "none", "-T", "53", "-U", "53", "--",
        "/usr/bin/prlimit",
    ]  # fmt: skip
    assert "--unshare-net" not in launch.argv
    missing = plan(granted, host=facts(tools=replace(TOOLS, pasta=None)))
    assert (missing.network.reason, "--unshare-net" in missing.argv) == (
        "granted, but pasta is not installed", True,
    )  # fmt: skip
    no_tun = plan(granted, host=facts(tun_usable=False))
    assert no_tun.network.reason == "granted, but /dev/net/tun is not usable"
    assert no_tun.network.isolated


def has(argv: list[str], *words: str) -> bool:
    return any(argv[i : i + len(words)] == list(words) for i in range(len(argv)))


def test_tsh_launch_keeps_ctx_read_only_and_mounts_follow_policy() -> None:
    agent = spec(policy="allow coder_t mount:workspace read\n")
    launch = plan(agent, LaunchRequest((), True, "/home/me/proj"))
    argv = list(launch.argv)
    assert argv[-6:] == ["/ctx/bin/ctxterm", "--pty", "--umask", "0077", "--", "/ctx/bin/tsh"]
    assert has(argv, "--ro-bind", "/ctx-host", "/ctx")
    assert has(argv, "--ro-bind-fd", "/home/me/proj", "/workspace")
    assert launch.mounts.notes == ("/opt/tools: left out (policy grants no mount:tools read)",)
    bare = plan(spec(policy=""), LaunchRequest(("x",), False, "/home/me/proj"))
    assert "/workspace" not in bare.argv
    assert bare.mounts.cwd == "/tmp"
    assert plan(cwd="/opt/tools").mounts.cwd == "/opt/tools"
    with pytest.raises(BadInput, match="absolute path"):
        plan(cwd="../up")


def test_other_agents_are_shown_only_when_policy_reads_them() -> None:
    rules = ["agent:peer read", "agent:coder read", "agent:boss write", "agent:kid start"]
    policy = "".join(f"allow coder_t {r}\n" for r in rules)
    argv = list(plan(spec(policy=policy)).argv)
    start = argv.index("/ctx/agent")
    assert argv[start - 3 : argv.index("--remount-ro", start) + 2] == [
        "--perms", "0755", "--tmpfs", "/ctx/agent",
        "--ro-bind", "/ctx-host/agent/coder", "/ctx/agent/coder",
        "--ro-bind", "/ctx-host/agent/coder.d", "/ctx/agent/coder.d",
        "--ro-bind-try", "/ctx-host/agent/peer", "/ctx/agent/peer",
        "--ro-bind-try", "/ctx-host/agent/peer.d", "/ctx/agent/peer.d",
        "--remount-ro", "/ctx/agent",
    ]  # fmt: skip


def test_shared_spaces_follow_policy() -> None:
    rules = [
        "shared:team read", "shared:team write", "shared:docs read", "shared:notes write",
        "mount:workspace write",
    ]  # fmt: skip
    policy = "".join(f"allow coder_t {r}\n" for r in rules) + "allow other_t shared:x write\n"
    argv = list(plan(spec(policy=policy)).argv)
    start = argv.index("/ctx/shared")
    assert argv[start - 3 : argv.index("--remount-ro", start) + 2] == [
        "--perms", "0755", "--tmpfs", "/ctx/shared",
        "--ro-bind-try", "/ctx-host/shared/docs", "/ctx/shared/docs",
        "--bind-try", "/ctx-host/shared/notes", "/ctx/shared/notes",
        "--bind-try", "/ctx-host/shared/team", "/ctx/shared/team",
        "--remount-ro", "/ctx/shared",
    ]  # fmt: skip
    # tsh sees /ctx read-only: a write grant cannot widen that.
    tsh = list(plan(spec(policy=policy), LaunchRequest((), False, None)).argv)
    assert has(tsh, "--ro-bind-try", "/ctx-host/shared/team", "/ctx/shared/team")
    assert not has(tsh, "--ro-bind", "/ctx-host/tool", "/ctx/tool")  # all of /ctx is


@pytest.mark.parametrize(
    ("mount", "message"),
    [
        ("/srv/x\t/opt/x\tro\tnoexec\n", "option noexec is not supported"),
        ("/var/lib/cfs/agent\t/opt/x\tro\t-\n", "source is, holds or lies in CortexFS storage"),
        ("/srv/x\t/workspace\tro\t-\n", "target is already mounted"),
        ("/srv/x\t/opt/a b\tro\t-\n", "cannot be named in policy"),
    ],
)
def test_mount_rows_the_launcher_refuses(mount: str, message: str) -> None:
    with pytest.raises(BadInput, match=message):
        plan(
            spec(
                mount=mount,
                policy="allow coder_t mount:x read\nallow coder_t mount:workspace read\n",
            )
        )


def test_binds_name_the_resolved_path_that_was_checked() -> None:
    links = {"/srv/tools": "/srv/real-tools", "/home/me/proj": "/var/lib/cfs/home"}
    host = facts(paths=PathFacts(lambda path: links.get(path, path), in_storage))
    launch = plan(request=LaunchRequest(("x",), False, "/srv/ws"), host=host)
    assert has(list(launch.argv), "--ro-bind-fd", "/srv/real-tools", "/opt/tools")
    with pytest.raises(BadInput, match=r"^/home/me/proj: the workspace is, holds or lies"):
        plan(host=host)  # its workspace /home/me/proj resolves into the storage


def test_a_runtime_holding_the_storage_is_refused() -> None:
    host = facts(runtime_roots=("/var/lib/cfs",))
    with pytest.raises(Unavailable, match="runtime /var/lib/cfs is, holds or lies in"):
        plan(host=host)


def test_workspace_in_storage_and_separate_root_are_refused() -> None:
    with pytest.raises(BadInput, match="the workspace is, holds or lies in CortexFS storage"):
        plan(request=LaunchRequest(("x",), False, "/var/lib/cfs"))
    with pytest.raises(BadInput, match="a separate root is not supported"):
        plan(spec(root="/srv/root\n"))


def test_identity_for_non_root_operators() -> None:
    me = Operator(4242, 4242, frozenset({4242, 4300}))
    own = spec(owner="4242\n")
    assert plan(own, operator=me).identity == Identity(4242, 4242, (4300,), 0o077)
    assert "--reuid" not in plan(own, operator=me).argv
    cases = [
        (spec(), "owned by uid 0, not uid 4242"),
        (spec(owner="4242\n", uid="4243\n"), "uid 4243 needs a root operator"),
        (spec(owner="4242\n", gid="4300\n"), "gid 4300 needs a root operator"),
        (spec(owner="4242\n", groups=""), "must be exactly yours: 4300"),
    ]
    for agent, message in cases:
        with pytest.raises(Denied, match=message):
            plan(agent, operator=me)


def test_unreachable_runtime_is_unavailable() -> None:
    host = facts(unreachable=lambda path, identity: "/root is mode 0700")
    with pytest.raises(Unavailable, match="runtime /opt/cfs is not reachable by uid 4242"):
        plan(host=host)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"uid": "x\n"}, "uid: 'x' is not a decimal id"),
        ({"env": "LD_PRELOAD=/x.so\n"}, "LD_PRELOAD is set by the launcher"),
        ({"label": "nolabel\n"}, "is not user:role:type:level"),
        ({"cwd": "rel\n"}, "must be an absolute path"),
    ],
)
def test_spec_errors_name_the_control(overrides: dict[str, str], message: str) -> None:
    with pytest.raises(BadInput, match=message):
        spec(**overrides)


def test_missing_controls_are_listed() -> None:
    with pytest.raises(BadInput, match="missing controls: uid, policy"):
        parse_spec(AgentRef("a", "/agent/a"), {k: v for k, v in controls().items()
                                                if k not in ("uid", "policy")})  # fmt: skip


def test_limits() -> None:
    assert prlimit_args(Limits(nofile=9000), 1024, True) == ["--nofile=1024:1024", "--core=0:0"]
    assert prlimit_args(Limits(tasks=64), 1 << 20, False)[-1] == "--nproc=64:64"
    with pytest.raises(BadInput, match="limit tasks must be a positive integer"):
        Limits(tasks=0).check()
    launch = plan(
        host=facts(cgroup=False), request=LaunchRequest(("x",), False, None, Limits(tasks=9))
    )
    assert launch.argv[:5] == (
        "/usr/bin/prlimit",
        "--nofile=4096:4096",
        "--core=0:0",
        "--nproc=9:9",
        "--",
    )


@pytest.fixture
def open_tmp() -> Iterator[Path]:
    """Under /tmp itself: pytest's own temp root is 0700, which would answer every probe."""
    path = Path(tempfile.mkdtemp(prefix="cortexfs-plan-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_host_facts(open_tmp: Path) -> None:
    tmp_path = open_tmp
    prefix = tmp_path / "venv"
    (prefix / "bin").mkdir(parents=True)
    runner = prefix / "bin" / "cortexfs-object-runner"
    runner.write_text(f"#!{prefix}/bin/python -I\n")
    os.symlink("/usr/bin/python3", prefix / "bin" / "python")
    roots = runtime_roots(str(runner))
    assert str(prefix) in roots and "/usr" in roots
    assert all(not a.startswith(b + "/") for a in roots for b in roots)
    locked = tmp_path / "locked"
    (locked / "inner").mkdir(parents=True)
    locked.chmod(0o700)
    who = Identity(4242, 4242, (), 0o077)
    assert unreachable(str(locked / "inner"), who) == f"{locked} is mode 0700"
    assert unreachable(str(locked / "inner"), Identity(0, 0, (), 0)) is None
    locked.chmod(0o750)
    os.chown(locked, 0, 4300)
    assert unreachable(str(locked / "inner"), replace(who, groups=(4300,))) is None
    storage = tmp_path / "storage"
    (storage / "bin").mkdir(parents=True)
    (storage / "bin" / "cortexfs.bootstrap.json").write_text("{}")
    (storage / "agent" / "x.d").mkdir(parents=True)
    assert is_storage(str(storage / "agent" / "x.d"))
    assert not is_storage(str(tmp_path / "locked"))
    assert stat.S_ISDIR(os.stat(storage).st_mode)
