"""CortexFS mount throughput as a ratio to the backing directory.

Run from the repository root as root: ``uv run python bench/cortexfs.py [--rounds N]``.

Mounts a temporary storage directory with ``cortexfs-mount``, writes ``--files`` small
files into ``shared/bench/`` through the mount, then times the same operations on the
mount and directly on the backing directory, alternating the two so machine drift hits
both alike:

- stat: ``os.stat`` of every file,
- readdir: ``os.listdir`` of the directory,
- read: open + read + close of every file.

Each operation's throughput ratio (mount / direct) is the median over rounds. Target
(issue brief): at least 0.3x for each. A measurement, not a test.

``--null`` measures the binding's ceiling instead: the same operations on a do-nothing
filesystem served through ``cortexfs.lowlevel`` (open sets keep_cache and noflush, a
release handler in Python as CortexFS has, opendir answers ENOSYS so listings are cached),
against a directory of the same files. See docs/cortexfs/bench.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

TARGET = 0.3


def _start(argv: list[str], ready: Path) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if os.path.exists(ready):
            return proc
        time.sleep(0.05)
    proc.kill()
    raise SystemExit(f"{argv[0]} did not become ready")


def _mount(base: Path) -> tuple[Path, Path, subprocess.Popen[bytes]]:
    storage, root = base / "storage", base / "ctx"
    root.mkdir()
    runner = Path(sys.executable).parent / "cortexfs-mount"
    argv = [str(runner), "--source", str(storage), str(root), "--foreground"]
    return storage, root, _start(argv, root / "status")


def _serve_null(mountpoint: str, names: list[str], size: int) -> None:
    """A do-nothing low-level filesystem: the cost of the binding and the kernel alone."""
    import ctypes
    import errno
    import stat

    here = os.path.dirname(os.path.abspath(__file__))  # holds this cortexfs.py, not the package
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    from cortexfs import lowlevel as ll

    lib, data = ll.load(), b"x" * size
    inos = {name.encode(): i + 2 for i, name in enumerate(names)}
    entries = [b".", b"..", *inos]

    def fill(st: ll.Stat, ino: int) -> None:
        st.st_ino, st.st_nlink = ino, 1
        st.st_mode = stat.S_IFDIR | 0o755 if ino == 1 else stat.S_IFREG | 0o644
        st.st_size = 0 if ino == 1 else size

    def lookup(req: int, parent: int, name: bytes) -> None:
        if name not in inos:
            lib.fuse_reply_err(req, errno.ENOENT)
            return
        entry = ll.EntryParam(ino=inos[name], attr_timeout=1.0, entry_timeout=1.0)
        fill(entry.attr, entry.ino)
        lib.fuse_reply_entry(req, ctypes.byref(entry))

    def getattr_(req: int, ino: int, fi: object) -> None:
        st = ll.Stat()
        fill(st, ino)
        lib.fuse_reply_attr(req, ctypes.byref(st), 1.0)

    def open_(req: int, ino: int, fi: ctypes._Pointer[ll.FileInfo]) -> None:
        fi.contents.keep_cache = fi.contents.noflush = 1
        lib.fuse_reply_open(req, fi)

    def read(req: int, ino: int, length: int, offset: int, fi: object) -> None:
        chunk = data[offset : offset + length]
        lib.fuse_reply_buf(req, chunk, len(chunk))

    def readdir(req: int, ino: int, length: int, offset: int, fi: object) -> None:
        buf, used, st = ctypes.create_string_buffer(length), 0, ll.Stat()
        for index in range(offset, len(entries)):
            st.st_ino = index + 1
            need = lib.fuse_add_direntry(
                req, ctypes.addressof(buf) + used, length - used, entries[index],
                ctypes.byref(st), index + 1,
            )  # fmt: skip
            if need > length - used:
                break
            used += need
        lib.fuse_reply_buf(req, buf, used)

    handlers = {
        "lookup": lookup, "forget": lambda req, ino, n: lib.fuse_reply_none(req),
        "getattr": getattr_, "open": open_, "read": read, "readdir": readdir,
        "release": lambda req, ino, fi: lib.fuse_reply_err(req, 0),
        "opendir": lambda req, ino, fi: lib.fuse_reply_err(req, errno.ENOSYS),
    }  # fmt: skip
    ops = ll.Operations()
    keep = [ll.CALLBACKS[name](handler) for name, handler in handlers.items()]
    for name, callback in zip(handlers, keep, strict=True):
        setattr(ops, name, callback)
    argv = (ctypes.c_char_p * 4)(
        b"null", b"-o", b"allow_other,default_permissions,fsname=cortexfs-null", None
    )
    session = lib.fuse_session_new(
        ctypes.byref(ll.Args(3, argv, 0)), ctypes.byref(ops), ctypes.sizeof(ops), None
    )
    lib.fuse_set_signal_handlers(session)
    if lib.fuse_session_mount(session, mountpoint.encode()) != 0:
        raise SystemExit("mount failed")
    lib.fuse_session_loop(session)
    lib.fuse_session_unmount(session)
    lib.fuse_remove_signal_handlers(session)
    lib.fuse_session_destroy(session)


def _measure(direct: str, mounted: str, names: list[str], rounds: int) -> None:
    ops = {"stat": _stat_all, "readdir": _list, "read": _read_all}
    print(f"{'operation':<10}{'direct ops/s':>14}{'mount ops/s':>14}{'ratio':>8}  target")
    for label, op in ops.items():
        op(direct, names), op(mounted, names)  # warm both caches
        ratios, direct_rates, mount_rates = [], [], []
        count = len(names) if label != "readdir" else (len(names) // 10 or 1)
        for _ in range(rounds):
            d = _rate(op, direct, names) * count
            m = _rate(op, mounted, names) * count
            direct_rates.append(d)
            mount_rates.append(m)
            ratios.append(m / d)
        ratio = statistics.median(ratios)
        ok = ratio >= TARGET
        print(
            f"{label:<10}{statistics.median(direct_rates):>14,.0f}"
            f"{statistics.median(mount_rates):>14,.0f}{ratio:>8.2f}  "
            f"{'ok' if ok else 'below'} (>= {TARGET})"
        )


def _unmount(root: Path, proc: subprocess.Popen[bytes]) -> None:
    subprocess.run(["fusermount3", "-u", str(root)], check=False)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        subprocess.run(["fusermount3", "-u", "-z", str(root)], check=False)


def _null_run(base: Path, names: list[str], size: int, rounds: int) -> None:
    direct, root = base / "direct", base / "null"
    direct.mkdir()
    root.mkdir()
    for name in names:
        (direct / name).write_bytes(b"x" * size)
    argv = [sys.executable, __file__, "--serve-null", str(root), "--files", str(len(names))]
    proc = _start([*argv, "--size", str(size)], root / names[0])
    try:
        print(f"do-nothing filesystem: {len(names)} files of {size} bytes, {rounds} rounds")
        _measure(str(direct), str(root), names, rounds)
    finally:
        _unmount(root, proc)


def _stat_all(directory: str, names: list[str]) -> None:
    for name in names:
        os.stat(os.path.join(directory, name))


def _list(directory: str, names: list[str]) -> None:
    for _ in range(len(names) // 10 or 1):
        os.listdir(directory)


def _read_all(directory: str, names: list[str]) -> None:
    for name in names:
        with open(os.path.join(directory, name), "rb") as handle:
            handle.read()


def _rate(op: Callable[[str, list[str]], None], directory: str, names: list[str]) -> float:
    start = time.perf_counter()
    op(directory, names)
    return 1.0 / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--null", action="store_true", help="measure the binding's ceiling")
    parser.add_argument("--serve-null", metavar="MOUNTPOINT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    names = [f"f{i:04d}.txt" for i in range(args.files)]
    if args.serve_null:
        _serve_null(args.serve_null, names, args.size)
        return 0
    base = Path(tempfile.mkdtemp(prefix="cortexfs-bench-"))
    try:
        if args.null:
            _null_run(base, names, args.size, args.rounds)
            return 0
        storage, root, proc = _mount(base)
        try:
            mounted = root / "shared" / "bench"
            mounted.mkdir()
            payload = os.urandom(args.size // 2).hex().encode()
            for name in names:
                (mounted / name).write_bytes(payload)
            direct = str(storage / "shared" / "bench")
            print(f"{args.files} files of {args.size} bytes, {args.rounds} rounds (median ratio)")
            _measure(direct, str(mounted), names, args.rounds)
        finally:
            _unmount(root, proc)
    finally:
        subprocess.run(["rm", "-rf", "--", str(base)], check=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
