"""`ctx agent start` launches a real sandbox: the fake hosted CLI reports what it got."""

from __future__ import annotations

import json
import os
from pathlib import Path


def _group_only(world) -> Path:
    """A file only members of world.extra_gid may read, inside the workspace."""
    secret_dir = world.workspace / "grp"
    if not secret_dir.exists():
        secret_dir.mkdir()
        (secret_dir / "secret").write_text("for the group\n")
        os.chown(secret_dir, 0, world.extra_gid)
        os.chown(secret_dir / "secret", 0, world.extra_gid)
        secret_dir.chmod(0o750)
        (secret_dir / "secret").chmod(0o640)
    return secret_dir / "secret"


def test_hosted_cli_gets_exact_argv_identity_and_only_granted_view(world, make_agent) -> None:
    secret = _group_only(world)
    (world.base / "rows").mkdir(exist_ok=True)
    agent = make_agent(
        "mount:workspace write", "mount:fake read", "mount:narrowed read",
        extra=("--groups", str(world.extra_gid), "--mount", world.fake_row(),
               "--env", "FOO=bar baz",
               "--mount", f"{world.base}/rows:/opt/narrowed:rw",
               "--mount", f"{world.base}/rows:/opt/ungranted:ro"),
    )  # fmt: skip
    probes = [
        "/workspace", "/opt/fake", "/opt/narrowed", "/opt/ungranted", "/ctx",
        f"/ctx/agent/{agent.name}.d", "/usr", "/etc", "/tmp", "/", "/run/cortexfs",
        str(world.storage), str(world.fakes), "/root", "/workspace/grp/secret",
    ]  # fmt: skip
    hosted = ["/opt/fake/fake-cli", "report", "--flag=x y", "", *probes]
    agent.start(*hosted)
    got = agent.report("some input\n")

    assert got["argv"] == hosted
    assert got["stdin"] == "some input\n"
    assert (got["uid"], got["gid"]) == (world.uid, world.gid)
    assert got["status"]["Uid"] == [str(world.uid)] * 4
    assert got["status"]["CapEff"] == ["0000000000000000"]
    assert got["status"]["NoNewPrivs"] == ["1"]
    assert got["readable"]["/workspace/grp/secret"] == secret.read_text()
    assert got["umask"] == "0077"
    assert got["group_leader"] is True
    assert (got["hostname"], got["cwd"]) == ("cortexfs", "/workspace")
    home = f"/ctx/home/{world.uid}"
    assert got["env"] == {
        "LANG": "C.UTF-8", "PATH": "/ctx/bin:/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp",
        "USER": f"u{world.uid}", "LOGNAME": f"u{world.uid}", "CTX_ROOT": "/ctx",
        "CTX_HOME": home, "CTX_PATH": f"/ctx/tool:{home}/tool", "CTX_AGENT": agent.name,
        "FOO": "bar baz", "PWD": "/workspace",  # bubblewrap sets PWD with --chdir
    }  # fmt: skip
    assert got["nofile"] == [4096, 4096]
    assert got["core"] == [0, 0]
    assert f"/cortexfs/agent.{agent.name}" in got["cgroup"]

    visible = got["visible"]
    assert [p for p in probes if not visible[p]] == [
        "/opt/ungranted",
        str(world.storage),
        str(world.fakes),
        "/root",
    ]
    assert got["writable"] == {
        "/workspace": "ok", "/opt/fake": "EROFS", "/opt/narrowed": "EROFS", "/ctx": "EACCES",
        f"/ctx/agent/{agent.name}.d": "EROFS", "/usr": "EROFS", "/etc": "EROFS", "/tmp": "ok",
        "/": "EROFS", "/run/cortexfs": "EROFS",
    }  # fmt: skip
    assert got["mounts"]["/ctx"].startswith("rw")
    assert got["mounts"]["/ctx/agent"].startswith("ro")
    assert got["interfaces"] == ["lo"]
    assert got["dns_port"] == "ECONNREFUSED"

    status = agent.status()
    assert status["identity"] == {
        "uid": world.uid, "gid": world.gid, "groups": [world.extra_gid], "umask": "0077",
    }  # fmt: skip
    assert status["network"] == "policy grants no network:default connect"
    assert status["notes"] == [
        "/opt/narrowed: read-only (policy grants no mount:narrowed write)",
        "/opt/ungranted: left out (policy grants no mount:ungranted read)",
    ]
    argv = status["argv"]
    assert argv[: argv.index("--") + 1] == [
        "/usr/bin/prlimit",
        "--nofile=4096:4096",
        "--core=0:0",
        "--",
    ]
    setpriv = argv.index("/usr/bin/setpriv")
    assert argv[setpriv : argv.index("--", setpriv) + 1] == [
        "/usr/bin/setpriv", "--reuid", str(world.uid), "--regid", str(world.gid),
        "--groups", str(world.extra_gid), "--inh-caps=-all", "--no-new-privs",
        "--pdeathsig", "KILL", "--",
    ]  # fmt: skip
    bwrap = argv.index("/usr/bin/bwrap")
    for flag in ("--die-with-parent", "--unshare-pid", "--unshare-uts", "--unshare-net",
                 "--clearenv", "--disable-userns"):  # fmt: skip
        assert flag in argv[bwrap:]
    assert argv[argv.index("--cap-drop") + 1] == "ALL"
    assert argv[argv.index("--ro-bind", bwrap) : argv.index("--ro-bind", bwrap) + 6] == [
        "--ro-bind",
        "/usr",
        "/usr",
        "--ro-bind",
        "/etc",
        "/etc",
    ]
    tmpfs = argv.index("--tmpfs")
    assert argv[tmpfs - 4 : tmpfs + 2] == [
        "--perms",
        "1777",
        "--size",
        str(512 << 20),
        "--tmpfs",
        "/tmp",
    ]
    assert argv[-len(hosted) - 5 :] == ["--", "/ctx/bin/ctxterm", "--umask", "0077", "--", *hosted]


def test_without_the_group_the_group_file_is_refused(world, make_agent) -> None:
    _group_only(world)
    agent = make_agent(
        "mount:workspace write", "mount:fake read", extra=("--mount", world.fake_row())
    )
    agent.start("/opt/fake/fake-cli", "report", "/workspace/grp/secret")
    got = agent.report()
    assert got["readable"]["/workspace/grp/secret"] == "EACCES"
    assert agent.status()["identity"]["groups"] == []


def test_pty_and_shared_umask(world, make_agent) -> None:
    agent = make_agent("mount:fake read", extra=("--mount", world.fake_row(), "--iso", "0"))
    agent.start("/opt/fake/fake-cli", "report", options=("--pty", "--no-workspace"))
    events = agent.events("")
    assert events[-1]["status"] == "ok", events
    text = "".join(e["text"] for e in events if e["type"] == "delta")
    got = json.loads(text.replace("\r\n", "\n").strip().splitlines()[-1])
    assert got["tty"] is True
    assert got["umask"] == "0022"
    assert got["cwd"] == "/tmp"
    assert "/workspace" not in got["mounts"]
    assert got["mounts"]["/ctx"].startswith("rw")


def test_no_host_path_shows_in_the_sandbox_proc(world, make_agent) -> None:
    """bubblewrap's options (the mount, runtime, run directory and bind sources on the
    host) reach it through --args, so /proc/1/cmdline (its init) names none of them, and
    no environment readable there does either."""
    agent = make_agent(
        "mount:workspace write", "mount:fake read", extra=("--mount", world.fake_row())
    )
    agent.start("/opt/fake/fake-cli", "procs")
    events = agent.events()
    assert events[-1]["status"] == "ok", events
    shown = json.loads("".join(e["text"] for e in events if e["type"] == "delta"))
    cmdline = shown["1"]["cmdline"]
    assert cmdline[:2] == ["/usr/bin/bwrap", "--args"] and cmdline[3:] == [
        "--", "/ctx/bin/ctxterm", "--umask", "0077", "--", "/opt/fake/fake-cli", "procs", "",
    ]  # fmt: skip
    host_paths = [str(world.base), str(world.ctx), str(world.storage), "/run/cortexfs"]
    environs = [p["environ"] for p in shown.values() if isinstance(p["environ"], list)]
    assert len(environs) == len(shown) == 3  # bubblewrap's init, ctxterm, the CLI: all read
    for text in ["\0".join(cmdline), *("\0".join(e) for e in environs)]:
        assert not [p for p in host_paths if p in text], text
