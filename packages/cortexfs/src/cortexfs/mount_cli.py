"""`cortexfs-mount --source STORAGE MOUNTPOINT`: bootstrap the storage and serve it as /ctx.

Exit codes: 0 served (and unmounted), 1 the storage or mountpoint is already in use,
2 bad paths or a storage that is not a CortexFS tree, 69 no FUSE or a dead mount left
on the mountpoint.
"""

from __future__ import annotations

import argparse
import errno
import fcntl
import os
import stat
import sys

from cortexfs import __version__
from cortexfs.errors import BadInput, CtxError, Failed, Unavailable

# Kernel caching (docs/cortexfs/design.md): attributes and entries for one second, the
# page cache kept across opens except for controls (decided per open in fuse_ops), side
# effects invalidated explicitly. One request loop thread: with the GIL, libfuse's worker
# threads only add hand-offs (small-file reads measured twice as fast single-threaded).
DEFAULT_TIMEOUT = 1.0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cortexfs-mount", description=__doc__)
    parser.add_argument("--version", action="version", version=f"cortexfs-mount {__version__}")
    parser.add_argument("--source", required=True, help="backing storage directory")
    parser.add_argument(
        "--init", action="store_true", help="create the storage directory when it is missing"
    )
    parser.add_argument("mountpoint")
    parser.add_argument("--foreground", action="store_true", help="do not daemonize")
    parser.add_argument("--runner", help="object runner path written into new objects")
    parser.add_argument("--attr-timeout", type=float, default=DEFAULT_TIMEOUT)
    return parser


def _check_mountpoint(mountpoint: str, mnt: str) -> None:
    from cortexfs.launch.mountcheck import mount_fstype

    try:
        mode = os.stat(mnt).st_mode
    except OSError as exc:
        if exc.errno == errno.ENOTCONN:
            raise Unavailable(
                f"{mountpoint}: a dead FUSE mount is left here (its daemon exited); "
                f"unmount it first: fusermount3 -u {mountpoint}"
            ) from exc
        mode = 0
    if not stat.S_ISDIR(mode):
        raise BadInput(f"{mountpoint}: mountpoint is not a directory")
    fstype = mount_fstype(mnt)
    if fstype is not None:
        raise Failed(f"{mountpoint}: already a mount point ({fstype}); unmount it first")


def _check_paths(source: str, mountpoint: str, init: bool) -> tuple[str, str]:
    src, mnt = os.path.realpath(source), os.path.realpath(mountpoint)
    _check_mountpoint(mountpoint, mnt)
    if src == mnt or src.startswith(mnt + os.sep) or mnt.startswith(src + os.sep):
        raise BadInput(f"{source}: storage and mountpoint must not contain each other")
    if not os.path.lexists(src) and not init:
        raise BadInput(f"{source}: storage does not exist (pass --init to create it)")
    if os.path.lexists(src) and not os.path.isdir(src):
        raise BadInput(f"{source}: storage is not a directory")
    if not os.path.exists("/dev/fuse"):
        raise Unavailable("/dev/fuse: FUSE is not available on this machine")
    return src, mnt


def lock_storage(source: str) -> int:
    """Hold an exclusive flock on the storage directory for the daemon's life (the fd is
    inherited when it daemonizes): one mount per storage."""
    fd = os.open(source, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise Failed(f"{source}: storage is already served by another cortexfs-mount") from None
    return fd


def serve(source: str, mountpoint: str, foreground: bool, runner: str, timeout: float) -> None:
    import mfusepy  # type: ignore[import-untyped]

    from cortexfs.fuse_binding import CortexFUSE
    from cortexfs.fuse_ops import CortexOps
    from cortexfs.storage import Backing

    ops = CortexOps(Backing(source), runner, mfusepy.fuse_get_context, attr_timeout=timeout)
    CortexFUSE(
        ops,
        mountpoint,
        raw_fi=True,
        foreground=foreground,
        allow_other=True,
        default_permissions=True,
        fsname="cortexfs",
        subtype="cortexfs",
        attr_timeout=timeout,
        entry_timeout=timeout,
        negative_timeout=0,
        nothreads=True,
    )


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    from cortexfs.bootstrap import bootstrap, repair
    from cortexfs.runner_path import default_runner
    from cortexfs.storage import Backing

    try:
        source, mountpoint = _check_paths(args.source, args.mountpoint, args.init)
        runner = args.runner or default_runner()
        if args.init:
            os.makedirs(source, mode=0o700, exist_ok=True)
        lock = lock_storage(source)
        if not bootstrap(source, runner):
            for path in repair(source, runner):
                print(f"cortexfs-mount: restored reference entry {path}", file=sys.stderr)
        Backing(source).sweep_temps()
        serve(source, mountpoint, args.foreground, runner, args.attr_timeout)
        os.close(lock)
    except CtxError as exc:
        print(f"cortexfs-mount: {exc.message}", file=sys.stderr)
        return exc.exit_code
    except RuntimeError as exc:
        print(f"cortexfs-mount: {args.mountpoint}: mount failed: {exc}", file=sys.stderr)
        return Unavailable.exit_code
    return 0
