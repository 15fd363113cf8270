"""Facts about this machine the launch plan needs: tools, /dev/net/tun, merged /usr,
limits, the CortexFS runtime to show inside the sandbox, and path reachability."""

from __future__ import annotations

import os
import pwd
import resource
import shutil
import stat
import sys
from collections.abc import Callable

from cortexfs.errors import Unavailable
from cortexfs.launch.cgroups import detect_cgroups
from cortexfs.launch.chain import HostTools, SystemView
from cortexfs.launch.identity import Identity
from cortexfs.launch.mounts import PathFacts
from cortexfs.launch.plan import HostFacts

# Tools are looked up on a fixed system PATH, never the operator's.
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
TOP_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
STORAGE_MARK = "bin/cortexfs.bootstrap.json"
_HUGE = 1 << 20


def host_tools() -> HostTools:
    found = {name: shutil.which(name, path=SYSTEM_PATH) for name in ("bwrap", "setpriv", "prlimit")}
    missing = [name for name, path in found.items() if path is None]
    if missing:
        raise Unavailable(f"the agent launcher needs {', '.join(missing)} (bubblewrap, util-linux)")
    return HostTools(
        found["bwrap"] or "", found["setpriv"] or "", found["prlimit"] or "",
        shutil.which("pasta", path=SYSTEM_PATH),
    )  # fmt: skip


def system_view() -> SystemView:
    links: list[tuple[str, str | None]] = []
    for path in TOP_LINKS:
        if os.path.islink(path):
            links.append((path, os.readlink(path)))
        elif os.path.isdir(path):
            links.append((path, None))
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    return SystemView(tuple(links), _HUGE if hard == resource.RLIM_INFINITY else hard)


def tun_usable(operator_uid: int) -> bool:
    try:
        st = os.stat("/dev/net/tun")
    except OSError:
        return False
    if not stat.S_ISCHR(st.st_mode):
        return False
    return operator_uid == 0 or os.access("/dev/net/tun", os.R_OK | os.W_OK)


def _prefix(path: str) -> str:
    """/x/venv/bin/prog -> /x/venv: the install prefix a bin/ entry belongs to."""
    return os.path.dirname(os.path.dirname(path))


def _interpreter(script: str) -> str | None:
    try:
        with open(script, "rb") as handle:
            first = handle.readline(4096)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode("utf-8", "replace").split()
    return words[0] if words else None


def runtime_roots(runner: str) -> tuple[str, ...]:
    """What must be visible (read-only) inside the sandbox so the object runner, ctxterm
    and tsh run there: the runner's prefix, its interpreter's prefix, and this package."""
    import cortexfs

    candidates = {_prefix(runner), _prefix(os.path.realpath(runner))}
    interpreter = _interpreter(runner)
    if interpreter:
        candidates |= {_prefix(interpreter), _prefix(os.path.realpath(interpreter))}
    candidates.add(os.path.dirname(os.path.dirname(os.path.realpath(cortexfs.__file__))))
    roots = sorted(c for c in candidates if c not in ("", "/"))
    kept: list[str] = []
    for root in roots:
        if not any(root.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(root)
    return tuple(kept)


def unreachable(path: str, identity: Identity) -> str | None:
    """Why `identity` cannot traverse to `path` by mode bits, or None when it can."""
    if identity.uid == 0:
        return None
    groups = {identity.gid, *identity.groups}
    current = "/"
    for part in [p for p in path.split("/") if p]:
        current = os.path.join(current, part)
        try:
            st = os.stat(current)
        except OSError as exc:
            return f"{current}: {exc.strerror}"
        if st.st_uid == identity.uid:
            bit = stat.S_IXUSR
        elif st.st_gid in groups:
            bit = stat.S_IXGRP
        else:
            bit = stat.S_IXOTH
        if stat.S_ISDIR(st.st_mode) and not st.st_mode & bit:
            return f"{current} is mode {stat.S_IMODE(st.st_mode):04o}"
    return None


def is_storage(path: str) -> bool:
    """Is `path` (or a directory above it) a CortexFS backing store? Its bootstrap state
    file marks it; binding it would expose controls without the filesystem's checks."""
    current = os.path.realpath(path)
    while True:
        if os.path.isfile(os.path.join(current, STORAGE_MARK)) and not _is_mount_root(current):
            return True
        if current == "/":
            return False
        current = os.path.dirname(current)


def backing_path(mountpoint: str) -> str | None:
    """The storage a CortexFS mount serves, as its root's xattr names it."""
    from cortexfs.xattrs import BACKING_PATH, PREFIX

    try:
        value = os.getxattr(mountpoint, PREFIX + BACKING_PATH).decode("utf-8", "replace")
    except OSError:
        return None
    return value if value.startswith("/") else None


def storage_guard() -> Callable[[str], bool]:
    """Does binding a path expose CortexFS around the filesystem's checks? It does when
    the path is, holds or lies in a live CortexFS mount or the storage one serves (binds
    are recursive: a workspace of `/` would carry both), or lies in any marked storage."""
    from cortexfs.launch.mountcheck import cortexfs_mounts
    from cortexfs.storage_binds import overlaps

    mounts = cortexfs_mounts()
    guarded = [*mounts, *(p for p in map(backing_path, mounts) if p)]

    def exposes(path: str) -> bool:
        return is_storage(path) or any(overlaps(path, g) for g in guarded)

    return exposes


def _is_mount_root(path: str) -> bool:
    """The mounted /ctx shows the same marker; it is the way in, not storage."""
    from cortexfs.launch.mountcheck import is_cortexfs_mount

    return is_cortexfs_mount(path)


def user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"u{uid}"


def gather(runner: str, operator_uid: int) -> HostFacts:
    return HostFacts(
        tools=host_tools(),
        view=system_view(),
        tun_usable=tun_usable(operator_uid),
        cgroup=operator_uid == 0 and detect_cgroups() is not None,
        runtime_roots=runtime_roots(runner),
        user_name=user_name,
        paths=PathFacts(os.path.realpath, storage_guard()),
        unreachable=unreachable,
    )


def python_command(module: str) -> list[str]:
    """Run `module.main()` with this interpreter and this copy of the package, isolated
    from the caller's PYTHON* variables (the helpers run with other credentials)."""
    import cortexfs

    root = os.path.dirname(os.path.dirname(os.path.realpath(cortexfs.__file__)))
    code = f"import sys; sys.path.insert(0, {root!r}); from {module} import main; sys.exit(main())"
    return [sys.executable, "-I", "-c", code]
