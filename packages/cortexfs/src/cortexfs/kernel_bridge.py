"""libfuse3 low-level requests -> the path-based `CortexOps` -> replies to the kernel.

Why low-level (docs/cortexfs/design.md): its `opendir` reply reaches the kernel as is, so
directory listings are cached by the kernel (no request per listing), and a request costs
one ctypes callback instead of libfuse's path walk plus a generic binding layer. This
module turns inode numbers into ABI paths (`InodeTable`), calls the same `CortexOps`
method the high-level API would, and answers with the matching `fuse_reply_*`. Every
request is answered exactly once: an OSError becomes its errno, anything else EIO.
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

from cortexfs import lowlevel as ll
from cortexfs.fuse_ops import CortexOps
from cortexfs.inodes import InodeTable

# FUSE_CAP_NO_OPENDIR_SUPPORT: answering opendir with ENOSYS makes the kernel stop sending
# opendir/releasedir and cache listings as if FOPEN_KEEP_CACHE | FOPEN_CACHE_DIR were set.
_CAP_NO_OPENDIR = 1 << 24
_CAPABLE_OFFSET = 5 * 4  # struct fuse_conn_info: five unsigned fields before `capable`
_RENAME_NOREPLACE, _RENAME_EXCHANGE = 1, 2
_NS = 1_000_000_000


def _fill_stat(st: ll.Stat, ino: int, attrs: dict[str, int]) -> None:
    st.st_ino = ino
    st.st_mode = attrs["st_mode"]
    st.st_nlink = attrs["st_nlink"]
    st.st_uid = attrs["st_uid"]
    st.st_gid = attrs["st_gid"]
    st.st_size = attrs["st_size"]
    st.st_blksize = 4096
    st.st_blocks = (attrs["st_size"] + 511) // 512
    st.atime_sec, st.atime_nsec = divmod(attrs["st_atime"], _NS)
    st.mtime_sec, st.mtime_nsec = divmod(attrs["st_mtime"], _NS)
    st.ctime_sec, st.ctime_nsec = divmod(attrs["st_ctime"], _NS)


def _name(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


class KernelBridge:
    """Owns the libfuse session; `caller` gives the uid/gid/pid of the request in flight."""

    def __init__(self, lib: ctypes.CDLL, ops: CortexOps, timeout: float) -> None:
        self.lib = lib
        self.ops = ops
        self.timeout = timeout
        self.inodes = InodeTable()
        self.session: int | None = None
        self.cache_dirs_by_enosys = False
        self._req: Any = None
        self._callbacks: list[Any] = []  # ctypes keeps no reference of its own
        self.operations = self._operations()

    # -- plumbing ------------------------------------------------------------
    def caller(self) -> tuple[int, int, int]:
        ctx = self.lib.fuse_req_ctx(self._req).contents
        return ctx.uid, ctx.gid, ctx.pid

    def _operations(self) -> ll.Operations:
        table = ll.Operations()
        for name, proto in ll.CALLBACKS.items():
            handler = getattr(self, f"do_{name}", None)
            if proto is None or handler is None:
                continue
            callback = proto(self._guard(handler))
            self._callbacks.append(callback)
            setattr(table, name, callback)
        init = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)(self._init)
        self._callbacks.append(init)
        table.init = ctypes.cast(init, ctypes.c_void_p)
        return table

    def _guard(self, handler: Callable[..., None]) -> Callable[..., None]:
        def call(req: Any, *args: Any) -> None:
            self._req = req
            try:
                handler(req, *args)
            except OSError as exc:
                self.lib.fuse_reply_err(req, exc.errno or errno.EIO)
            except BaseException:
                traceback.print_exc(file=sys.stderr)
                self.lib.fuse_reply_err(req, errno.EIO)

        return call

    def _init(self, userdata: Any, conn: Any) -> None:
        capable = ctypes.c_uint.from_address(conn + _CAPABLE_OFFSET).value
        self.cache_dirs_by_enosys = bool(capable & _CAP_NO_OPENDIR)

    def _path(self, ino: int) -> str:
        try:
            return self.inodes.path(ino)
        except KeyError:
            raise OSError(errno.ESTALE, f"inode {ino} was forgotten") from None

    def _child(self, parent: int, name: bytes) -> str:
        try:
            return self.inodes.child(parent, _name(name))
        except KeyError:
            raise OSError(errno.ESTALE, f"inode {parent} was forgotten") from None

    def _entry(self, path: str) -> ll.EntryParam:
        attrs = self.ops.getattr(path)
        entry = ll.EntryParam()
        entry.ino = self.inodes.remember(path)
        _fill_stat(entry.attr, entry.ino, attrs)
        entry.attr_timeout = entry.entry_timeout = self.timeout
        return entry

    def _reply_entry(self, req: Any, path: str) -> None:
        self.lib.fuse_reply_entry(req, ctypes.byref(self._entry(path)))

    def _reply_attr(self, req: Any, ino: int) -> None:
        st = ll.Stat()
        _fill_stat(st, ino, self.ops.getattr(self._path(ino)))
        self.lib.fuse_reply_attr(req, ctypes.byref(st), self.timeout)

    def _reply_sized(self, req: Any, data: bytes, size: int) -> None:
        """getxattr/listxattr: size 0 asks for the length only."""
        if size == 0:
            self.lib.fuse_reply_xattr(req, len(data))
        elif len(data) > size:
            self.lib.fuse_reply_err(req, errno.ERANGE)
        else:
            self.lib.fuse_reply_buf(req, data, len(data))

    # -- invalidation (called from the Invalidator's thread, never in a request) ----------
    def notify(self, path: str) -> None:
        """Forget `path` (its dentry and attributes) and the listing of its directory."""
        if self.session is None:
            return
        parent, _, name = path.rpartition("/")
        parent_ino = self.inodes.known(parent or "/")
        if parent_ino is not None:
            raw = name.encode("utf-8", "surrogateescape")
            self.lib.fuse_lowlevel_notify_inval_entry(self.session, parent_ino, raw, len(raw))
            self.lib.fuse_lowlevel_notify_inval_inode(self.session, parent_ino, 0, 0)
        ino = self.inodes.known(path)
        if ino is not None:
            self.lib.fuse_lowlevel_notify_inval_inode(self.session, ino, 0, 0)

    # -- requests ------------------------------------------------------------
    def do_lookup(self, req: Any, parent: int, name: bytes) -> None:
        self._reply_entry(req, self._child(parent, name))

    def do_forget(self, req: Any, ino: int, count: int) -> None:
        self.inodes.forget(ino, count)
        self.lib.fuse_reply_none(req)

    def do_getattr(self, req: Any, ino: int, fi: Any) -> None:
        self._reply_attr(req, ino)

    def do_setattr(self, req: Any, ino: int, attr: Any, to_set: int, fi: Any) -> None:
        path, new = self._path(ino), attr.contents
        if to_set & ll.SET_MODE:
            self.ops.chmod(path, new.st_mode)
        if to_set & (ll.SET_UID | ll.SET_GID):
            uid = new.st_uid if to_set & ll.SET_UID else -1
            self.ops.chown(path, uid, new.st_gid if to_set & ll.SET_GID else -1)
        if to_set & ll.SET_SIZE:
            self.ops.truncate(path, new.st_size, fi.contents if fi else None)
        if to_set & (ll.SET_ATIME | ll.SET_MTIME | ll.SET_ATIME_NOW | ll.SET_MTIME_NOW):
            self.ops.utimens(path, self._times(path, new, to_set))
        self._reply_attr(req, ino)

    def _times(self, path: str, new: Any, to_set: int) -> tuple[int, int] | None:
        now_both = ll.SET_ATIME_NOW | ll.SET_MTIME_NOW
        if to_set & now_both == now_both:
            return None
        current = self.ops.getattr(path)
        now = time.time_ns()

        def pick(is_set: int, is_now: int, sec: int, nsec: int, old: int) -> int:
            if to_set & is_now:
                return now
            return sec * _NS + nsec if to_set & is_set else old

        atime = pick(ll.SET_ATIME, ll.SET_ATIME_NOW, new.atime_sec, new.atime_nsec,
                     current["st_atime"])  # fmt: skip
        mtime = pick(ll.SET_MTIME, ll.SET_MTIME_NOW, new.mtime_sec, new.mtime_nsec,
                     current["st_mtime"])  # fmt: skip
        return atime, mtime

    def do_readlink(self, req: Any, ino: int) -> None:
        self.lib.fuse_reply_readlink(req, os.fsencode(self.ops.readlink(self._path(ino))))

    def do_mknod(self, req: Any, parent: int, name: bytes, mode: int, rdev: int) -> None:
        path = self._child(parent, name)
        self.ops.mknod(path, mode, rdev)
        self._reply_entry(req, path)

    def do_mkdir(self, req: Any, parent: int, name: bytes, mode: int) -> None:
        path = self._child(parent, name)
        self.ops.mkdir(path, mode)
        self._reply_entry(req, path)

    def do_unlink(self, req: Any, parent: int, name: bytes) -> None:
        path = self._child(parent, name)
        self.ops.unlink(path)
        self.inodes.removed(path)
        self.lib.fuse_reply_err(req, 0)

    def do_rmdir(self, req: Any, parent: int, name: bytes) -> None:
        path = self._child(parent, name)
        self.ops.rmdir(path)
        self.inodes.removed(path)
        self.lib.fuse_reply_err(req, 0)

    def do_symlink(self, req: Any, target: bytes, parent: int, name: bytes) -> None:
        path = self._child(parent, name)
        self.ops.symlink(path, _name(target))
        self._reply_entry(req, path)

    def do_rename(
        self, req: Any, parent: int, name: bytes, new_parent: int, new_name: bytes, flags: int
    ) -> None:
        old = self._child(parent, name)
        new = self._child(new_parent, new_name)
        if flags & _RENAME_EXCHANGE:
            raise OSError(errno.EINVAL, "RENAME_EXCHANGE is not supported")
        if flags & _RENAME_NOREPLACE and self.ops.backing.exists(new):
            raise OSError(errno.EEXIST, f"{new} exists")
        self.ops.rename(old, new)
        self.inodes.moved(old, new)
        self.lib.fuse_reply_err(req, 0)

    def do_link(self, req: Any, ino: int, new_parent: int, new_name: bytes) -> None:
        path = self._child(new_parent, new_name)
        self.ops.link(path, self._path(ino))
        self._reply_entry(req, path)

    def do_open(self, req: Any, ino: int, fi: Any) -> None:
        self.ops.open(self._path(ino), fi.contents)
        if self.lib.fuse_reply_open(req, fi) != 0:  # interrupted: no release will come
            self.ops.release("", fi.contents)

    def do_create(self, req: Any, parent: int, name: bytes, mode: int, fi: Any) -> None:
        path = self._child(parent, name)
        self.ops.create(path, mode, fi.contents)
        try:
            entry = self._entry(path)
        except BaseException:
            self.ops.release(path, fi.contents)  # the kernel never learns of this handle
            raise
        if self.lib.fuse_reply_create(req, ctypes.byref(entry), fi) != 0:
            self.ops.release(path, fi.contents)

    def do_read(self, req: Any, ino: int, size: int, offset: int, fi: Any) -> None:
        data = self.ops.read("", size, offset, fi.contents)
        self.lib.fuse_reply_buf(req, data, len(data))

    def do_write(self, req: Any, ino: int, buf: int, size: int, offset: int, fi: Any) -> None:
        written = self.ops.write("", ctypes.string_at(buf, size), offset, fi.contents)
        self.lib.fuse_reply_write(req, written)

    def do_flush(self, req: Any, ino: int, fi: Any) -> None:
        self.ops.flush("", fi.contents)
        self.lib.fuse_reply_err(req, 0)

    def do_release(self, req: Any, ino: int, fi: Any) -> None:
        self.ops.release("", fi.contents)
        self.lib.fuse_reply_err(req, 0)

    def do_fsync(self, req: Any, ino: int, datasync: int, fi: Any) -> None:
        self.ops.fsync("", datasync, fi.contents)
        self.lib.fuse_reply_err(req, 0)

    def do_opendir(self, req: Any, ino: int, fi: Any) -> None:
        if self.cache_dirs_by_enosys:
            self.lib.fuse_reply_err(req, errno.ENOSYS)  # cached from now on, see _CAP_...
            return
        info = fi.contents
        info.keep_cache = info.cache_readdir = 1
        self.lib.fuse_reply_open(req, fi)

    def do_readdir(self, req: Any, ino: int, size: int, offset: int, fi: Any) -> None:
        names = self.ops.readdir(self._path(ino), 0)
        buf = ctypes.create_string_buffer(size)
        base, used, st = ctypes.addressof(buf), 0, ll.Stat()
        for index in range(offset, len(names)):
            st.st_ino = index + 1  # never 0, which readdir(3) would skip
            raw = names[index].encode("utf-8", "surrogateescape")
            need = self.lib.fuse_add_direntry(
                req, base + used, size - used, raw, ctypes.byref(st), index + 1
            )
            if need > size - used:
                break
            used += need
        self.lib.fuse_reply_buf(req, buf, used)

    def do_statfs(self, req: Any, ino: int) -> None:
        values = self.ops.statfs("/")
        sv = ll.StatVfs(**values)
        self.lib.fuse_reply_statfs(req, ctypes.byref(sv))

    def do_setxattr(
        self, req: Any, ino: int, name: bytes, value: int, size: int, flags: int
    ) -> None:
        self.ops.setxattr(self._path(ino), _name(name), ctypes.string_at(value, size), flags)
        self.lib.fuse_reply_err(req, 0)

    def do_getxattr(self, req: Any, ino: int, name: bytes, size: int) -> None:
        self._reply_sized(req, self.ops.getxattr(self._path(ino), _name(name)), size)

    def do_listxattr(self, req: Any, ino: int, size: int) -> None:
        names = self.ops.listxattr(self._path(ino))
        self._reply_sized(req, b"".join(n.encode() + b"\0" for n in names), size)

    def do_removexattr(self, req: Any, ino: int, name: bytes) -> None:
        self.ops.removexattr(self._path(ino), _name(name))
        self.lib.fuse_reply_err(req, 0)


def mount_options() -> bytes:
    return b"allow_other,default_permissions,fsname=cortexfs,subtype=cortexfs"


def run(
    bridge: KernelBridge, mountpoint: str, foreground: bool, on_ready: Callable[[], None]
) -> None:
    """Mount, serve requests on this thread until unmounted or signalled, clean up."""
    import signal

    lib = bridge.lib
    argv = (ctypes.c_char_p * 4)(b"cortexfs", b"-o", mount_options(), None)
    args = ll.Args(3, argv, 0)
    ops = bridge.operations
    session = lib.fuse_session_new(ctypes.byref(args), ctypes.byref(ops), ctypes.sizeof(ops), None)
    if not session:
        raise RuntimeError("fuse_session_new failed")
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # let libfuse's handler end the loop
    try:
        if lib.fuse_set_signal_handlers(session) != 0:
            raise RuntimeError("cannot install signal handlers")
        if lib.fuse_session_mount(session, os.fsencode(mountpoint)) != 0:
            raise RuntimeError("fuse_session_mount failed")
        try:
            if not foreground and lib.fuse_daemonize(0) != 0:
                raise RuntimeError("cannot daemonize")
            bridge.session = session
            on_ready()
            lib.fuse_session_loop(session)
        finally:
            bridge.session = None
            lib.fuse_session_unmount(session)
    finally:
        lib.fuse_remove_signal_handlers(session)
        lib.fuse_session_destroy(session)
