"""`ctx` as a subprocess against the mounted tree: output bytes and exit codes."""

from __future__ import annotations

import os
import sys
from pathlib import Path

CTX = str(Path(sys.executable).parent / "ctx")


def ctx(run, env, *args: str):
    return run([CTX, *args], env)


def test_status_abi_env(ctx_mount, run) -> None:
    env = ctx_mount.env()
    assert ctx(run, env, "status").stdout == b"ready\n"
    abi = ctx(run, env, "abi")
    assert (abi.returncode, abi.stdout) == (
        0, b"status\nbin\nmodel\nagent\ntool\nchannel\nhome\nshared\n",
    )  # fmt: skip
    root = str(ctx_mount.root)
    lines = ctx(run, env, "env").stdout.decode().splitlines()
    assert lines == [
        f"CTX_ROOT={root}",
        f"CTX_HOME={root}/home/0",
        f"CTX_PATH={root}/tool:{root}/home/0/tool",
        f"PATH={root}/bin:{env['PATH']}",
    ]


def test_not_mounted_is_unavailable(tmp_path, run) -> None:
    env = {"PATH": "/usr/bin:/bin", "CTX_ROOT": str(tmp_path), "HOME": str(tmp_path)}
    result = ctx(run, env, "status")
    assert result.returncode == 69
    assert result.stderr.decode() == (
        f"ctx: {tmp_path}/status: No such file or directory; is /ctx mounted?\n"
    )
    doctor = ctx(run, env, "doctor")
    assert doctor.returncode == 1
    assert (
        doctor.stdout.decode().splitlines()[0] == f"fail fuse-mount: {tmp_path} is not a FUSE mount"
    )
    assert ctx(run, env, "abi").returncode == 1


def test_ls_which_cat(ctx_mount, run) -> None:
    env = ctx_mount.env()
    listing = ctx(run, env, "ls", "agent").stdout.decode().splitlines()
    assert {
        "ctx.agent.exec\tcoder",
        "ctx.agent.controls\tcoder.d",
        "ctx.agent.sock\tcoder.sock",
    } <= set(listing)
    root_listing = ctx(run, env, "ls").stdout.decode().splitlines()
    assert "ctx.status\tstatus" in root_listing
    os.mkdir(ctx_mount.root / "home" / "0" / "tool" / "lookup1.d")
    assert ctx(run, env, "which", "lookup1").stdout.decode() == (
        f"{ctx_mount.root}/home/0/tool/lookup1\n"
    )
    missing = ctx(run, env, "which", "nosuch")
    assert missing.returncode == 1
    assert ctx(run, env, "which", "../x").returncode == 2
    assert ctx(run, env, "cat", "model/route").stdout == b"fallback: direct\n"
    assert ctx(run, env, "cat", "nosuch").returncode == 1


def test_set_is_atomic_and_maps_errnos(ctx_mount, run, unique) -> None:
    env = ctx_mount.env()
    os.mkdir(ctx_mount.root / "agent" / f"{unique}.d")
    rel = f"agent/{unique}.d"
    assert ctx(run, env, "set", f"{rel}/life", "ephemeral").returncode == 0
    assert (ctx_mount.root / rel / "life").read_bytes() == b"ephemeral\n"
    assert ctx(run, env, "set", f"{rel}/groups", "10", "20").returncode == 0
    assert (ctx_mount.root / rel / "groups").read_bytes() == b"10\n20\n"
    bad = ctx(run, env, "set", f"{rel}/perm", "rwz")
    assert bad.returncode == 2
    assert bad.stderr.decode() == f"ctx: {ctx_mount.root}/{rel}/perm: EINVAL (Invalid argument)\n"
    assert ctx(run, env, "set", f"{rel}/owner", "7").returncode == 13
    assert ctx(run, env, "set", "status", "x").returncode == 13
    assert ctx(run, env, "set", f"{rel}/life", "a\nb").returncode == 2
    leftovers = [n for n in os.listdir(ctx_mount.root / rel) if ".tmp-" in n]
    assert leftovers == []


def test_validate_name(run) -> None:
    env = {"PATH": "/usr/bin:/bin"}
    assert ctx(run, env, "validate-name", "calc.add").returncode == 0
    bad = ctx(run, env, "validate-name", "x.sock")
    assert bad.returncode == 2
    assert bad.stderr == b"ctx: 'x.sock': must not end with .sock or .d\n"


def test_doctor_on_a_healthy_mount(ctx_mount, run) -> None:
    result = ctx(run, ctx_mount.env(), "doctor")
    assert result.returncode == 0, result.stdout
    root = ctx_mount.root
    assert result.stdout.decode().splitlines() == [
        "ok fuse-mount",
        "ok status",
        "ok root-abi",
        "ok reference-tree",
        "ok ctx-home",
        f"ok ctx-path {root}/tool",
        f"ok ctx-path {root}/home/0/tool",
    ]


def test_usage_error_is_exit_2(run) -> None:
    assert ctx(run, {"PATH": "/usr/bin"}, "frobnicate").returncode == 2
