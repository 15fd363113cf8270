"""Where a uid's warm host listens: a private directory only that uid can enter, so
the socket in it was bound by that uid (or root). Stdlib `os` only: the object runner
imports this on every call."""

import os
import stat
import sys

SOCKET = "calls.sock"
LOCK = "host.lock"


def install_key() -> str:
    """Which installation a host belongs to: this interpreter and this package's
    directory (its mtime changes when a checkout or upgrade replaces files), so a
    runner never hands its call to a host running other code."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    stamp = f"{sys.executable}\0{package}\0{os.stat(package).st_mtime_ns}"
    return f"{fnv1a32(os.fsencode(stamp)):08x}"


def fnv1a32(data: bytes) -> int:
    """32-bit FNV-1a: a stable name for a stamp of about a hundred bytes in about 5 us,
    where importing zlib for crc32 (an extension module) costs the runner 0.3 ms."""
    value = 0x811C9DC5
    for byte in data:
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return value


def uid_dir(uid: int) -> str:
    """`/run/user/<uid>/cortexfs-calls` when the uid has a runtime dir, else
    `/tmp/cortexfs-calls-<uid>` (an agent sandbox has its own /tmp: never this one)."""
    run_user = f"/run/user/{uid}"
    try:
        st = os.lstat(run_user)
        if stat.S_ISDIR(st.st_mode) and st.st_uid == uid:
            return f"{run_user}/cortexfs-calls"
    except OSError:
        pass
    return f"/tmp/cortexfs-calls-{uid}"  # noqa: S108 - checked private by private_dir


def host_dir(uid: int) -> str:
    """The host's own directory, one per installation, inside the uid's private one."""
    return f"{uid_dir(uid)}/{install_key()}"


def host_dirs(uid: int) -> list[str]:
    """Where a host of this installation may already listen: `host_dir` first, then the
    /tmp one. /run/user/<uid> comes with the uid's first login session, so a host
    started before it listens under /tmp; looking in one place only, the next caller
    started a second host there (and a second set of servers) beside the first."""
    key = install_key()
    first, fallback = uid_dir(uid), f"/tmp/cortexfs-calls-{uid}"  # noqa: S108 - as uid_dir
    return [f"{first}/{key}"] + ([f"{fallback}/{key}"] if fallback != first else [])


def private_dir(path: str, uid: int) -> None:
    """Create `path` 0700, or accept it only if it is a real directory of `uid` that no
    one else can enter; PermissionError otherwise (someone else planted it)."""
    try:  # noqa: SIM105 - contextlib costs the runner 2 ms of imports
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != uid or st.st_mode & 0o077:
        raise PermissionError(f"{path} is not a private directory of uid {uid}")
