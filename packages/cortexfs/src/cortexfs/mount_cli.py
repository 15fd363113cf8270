"""`cortexfs-mount --source STORAGE MOUNTPOINT`: bootstrap the storage and serve it as /ctx."""

from __future__ import annotations

import argparse
import os
import sys

from cortexfs import __version__
from cortexfs.errors import BadInput, CtxError, Unavailable

# Kernel caching (docs/cortexfs/design.md): attributes and entries for one second, the
# page cache kept across opens except for controls (decided per open in fuse_ops), side
# effects invalidated explicitly. One request loop thread: with the GIL, libfuse's worker
# threads only add hand-offs (small-file reads measured twice as fast single-threaded).
DEFAULT_TIMEOUT = 1.0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cortexfs-mount", description=__doc__)
    parser.add_argument("--version", action="version", version=f"cortexfs-mount {__version__}")
    parser.add_argument("--source", required=True, help="backing storage directory")
    parser.add_argument("mountpoint")
    parser.add_argument("--foreground", action="store_true", help="do not daemonize")
    parser.add_argument("--runner", help="object runner path written into new objects")
    parser.add_argument("--attr-timeout", type=float, default=DEFAULT_TIMEOUT)
    return parser


def _check_paths(source: str, mountpoint: str) -> tuple[str, str]:
    src, mnt = os.path.realpath(source), os.path.realpath(mountpoint)
    if not os.path.isdir(mnt):
        raise BadInput(f"{mountpoint}: mountpoint is not a directory")
    if src == mnt or src.startswith(mnt + os.sep) or mnt.startswith(src + os.sep):
        raise BadInput(f"{source}: storage and mountpoint must not contain each other")
    if not os.path.exists("/dev/fuse"):
        raise Unavailable("/dev/fuse: FUSE is not available on this machine")
    return src, mnt


def serve(source: str, mountpoint: str, foreground: bool, runner: str, timeout: float) -> None:
    import mfusepy  # type: ignore[import-untyped]

    from cortexfs.fuse_binding import CortexFUSE
    from cortexfs.fuse_ops import CortexOps
    from cortexfs.storage import Backing

    ops = CortexOps(Backing(source), runner, mfusepy.fuse_get_context)
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
    from cortexfs.bootstrap import bootstrap
    from cortexfs.runner_path import default_runner
    from cortexfs.storage import Backing

    try:
        source, mountpoint = _check_paths(args.source, args.mountpoint)
        runner = args.runner or default_runner()
        bootstrap(source, runner)
        Backing(source).sweep_temps()
        serve(source, mountpoint, args.foreground, runner, args.attr_timeout)
    except CtxError as exc:
        print(f"cortexfs-mount: {exc.message}", file=sys.stderr)
        return exc.exit_code
    except RuntimeError as exc:
        print(f"cortexfs-mount: {args.mountpoint}: mount failed: {exc}", file=sys.stderr)
        return Unavailable.exit_code
    return 0
