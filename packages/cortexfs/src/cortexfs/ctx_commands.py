"""`ctx` subcommands as functions of (CtxEnv, arguments) -> output lines; they raise CtxError.

ctx is a thin client: everything it knows comes from the mounted tree, nothing from a daemon.
"""

from __future__ import annotations

import errno
import os

from cortexfs.ctl_write import os_error, write_control
from cortexfs.ctx_env import CtxEnv
from cortexfs.errors import BadInput, Failed, Unavailable
from cortexfs.layout import ROOT_ENTRIES, classify
from cortexfs.names import name_problem
from cortexfs.resolve import which
from cortexfs.templates import reference_paths
from cortexfs.xattrs import PREFIX, kind_string


def abi_path(env: CtxEnv, path: str | None) -> str:
    if not path:
        return env.root
    return path if path.startswith("/") else os.path.join(env.root, path)


def status(env: CtxEnv) -> list[str]:
    path = os.path.join(env.root, "status")
    try:
        with open(path, "rb") as handle:
            value = handle.read(64).decode("utf-8", "replace")
    except OSError as exc:
        raise Unavailable(f"{path}: {exc.strerror}; is /ctx mounted?") from exc
    if value != "ready\n":
        raise Unavailable(f"{path}: not ready ({value.strip()!r})")
    return ["ready"]


def abi(env: CtxEnv) -> list[str]:
    try:
        present = set(os.listdir(env.root))
    except OSError as exc:
        raise Unavailable(f"{env.root}: {exc.strerror}") from exc
    expected = set(ROOT_ENTRIES)
    problems = [f"missing {n}" for n in ROOT_ENTRIES if n not in present]
    problems += [f"unexpected {n}" for n in sorted(present - expected)]
    if problems:
        raise Failed(f"{env.root}: root is not the frozen ABI: {', '.join(problems)}")
    return list(ROOT_ENTRIES)


def env_lines(env: CtxEnv, path_var: str) -> list[str]:
    bin_dir = os.path.join(env.root, "bin")
    return [*env.render(), f"PATH={bin_dir}:{path_var}" if path_var else f"PATH={bin_dir}"]


def kind_of(env: CtxEnv, path: str) -> str:
    """The mount's `user.cortexfs.kind`; symlinks carry no user xattrs, so classify those."""
    try:
        return os.getxattr(path, PREFIX + "kind", follow_symlinks=False).decode()
    except OSError:
        root = env.root.rstrip("/")
        if not path.startswith(root + "/"):
            return "ctx.unknown"
        return kind_string(classify(path[len(root) :]), os.path.isdir(path))


def ls(env: CtxEnv, path: str | None) -> list[str]:
    target = abi_path(env, path)
    try:
        names = sorted(os.listdir(target))
    except OSError as exc:
        raise os_error(target, exc) from exc
    return [f"{kind_of(env, os.path.join(target, n))}\t{n}" for n in names]


def which_cmd(env: CtxEnv, name: str) -> list[str]:
    problem = name_problem(name)
    if problem:
        raise BadInput(f"{name}: not an object name: {problem}")
    found = which(env, name)
    if found is None:
        raise Failed(f"{name}: not found on CTX_PATH ({':'.join(env.path)})")
    return [found]


def cat(env: CtxEnv, path: str) -> bytes:
    target = abi_path(env, path)
    try:
        with open(target, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise os_error(target, exc) from exc


def set_control(env: CtxEnv, path: str, values: list[str]) -> list[str]:
    target = abi_path(env, path)
    if any("\n" in v for v in values):
        raise BadInput(f"{target}: values must not contain newlines (give one argument per line)")
    write_control(target, "".join(f"{v}\n" for v in values).encode())
    return []


def validate_name(name: str) -> list[str]:
    problem = name_problem(name)
    if problem:
        raise BadInput(f"{name!r}: {problem}")
    return []


def mount_problem(root: str) -> str | None:
    """Why `root` is not a live CortexFS mount, or None when it is one."""
    from cortexfs.launch.mountcheck import FSTYPE, mount_fstype

    fstype = mount_fstype(root)
    try:
        os.stat(root)
    except OSError as exc:
        if exc.errno == errno.ENOTCONN:
            return (
                f"{root} is a dead FUSE mount (its daemon exited): "
                f"run fusermount3 -u {root}, then mount it again"
            )
    if fstype is None:
        return f"{root} is not a FUSE mount"
    if fstype != FSTYPE:
        return f"{root} is a {fstype} mount, not {FSTYPE}"
    return None


def doctor(env: CtxEnv) -> tuple[list[str], bool]:
    """Every check runs; the lines say which failed."""
    checks: list[tuple[str, str | None]] = []

    def check(name: str, problem: str | None) -> None:
        checks.append((name, problem))

    check("fuse-mount", mount_problem(env.root))
    for name, probe in (("status", status), ("root-abi", abi)):
        try:
            probe(env)
            check(name, None)
        except (Unavailable, Failed) as exc:
            check(name, exc.message)
    root = env.root.rstrip("/")
    missing = [p for p in reference_paths() if not os.path.lexists(root + p)]
    reference = f"missing {', '.join(missing)} (remounting restores them)" if missing else None
    check("reference-tree", reference)
    check("ctx-home", None if os.path.isdir(env.home) else f"{env.home} does not exist")
    for entry in env.path:
        check(f"ctx-path {entry}", None if os.path.isdir(entry) else "not a directory")
    lines = [f"ok {n}" if p is None else f"fail {n}: {p}" for n, p in checks]
    return lines, all(p is None for _, p in checks)
