"""The mfusepy adapter: classify the path, ask `decide`, perform the plan on the backing store.

Every refusal is decided in `decide` (pure); this module only resolves facts (owner,
liveness, emptiness) from storage. Refusals (`FsRefusal`) and failing backing calls are
both OSErrors, which mfusepy answers with -errno.
"""

from __future__ import annotations

import errno
import functools
import os
import stat
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, TypeVar

import mfusepy  # type: ignore[import-untyped]

from cortexfs import decide, requesters
from cortexfs.attrs import STATUS_BYTES, BackingStat, presented
from cortexfs.controls import MAX_CONTROL_BYTES, check_control
from cortexfs.decide import SECRET_CONTROLS, Plan, Writer
from cortexfs.errors import FsRefusal
from cortexfs.handles import BytesHandle, ControlHandle, FdHandle, HandleTable, LogHandle
from cortexfs.invalidate import Invalidator
from cortexfs.layout import ROOT_ENTRIES, Kind, Node, classify
from cortexfs.listings import Listings
from cortexfs.object_log import appended_log
from cortexfs.objects import ObjectClass
from cortexfs.perm import Perm, parse_perm, perm_from_mode
from cortexfs.runtime_state import alias_target, supervisor_pid
from cortexfs.runtime_state import render as render_state
from cortexfs.storage import Backing, atomic_write, fsync_dir
from cortexfs.storage_binds import refuse_storage_rows
from cortexfs.templates import home_entries, object_entries
from cortexfs.xattrs import PREFIX, Facts, names, xattr_values

Caller = Callable[[], tuple[int, int, int]]

RENAME_NOREPLACE = 1  # <linux/fs.h>; RENAME_EXCHANGE and RENAME_WHITEOUT are refused
ROOT_LISTING = (b".", b"..", *(name.encode() for name in ROOT_ENTRIES))
# libfuse before 3.16 drops the flags opendir sets (libfuse issue #821): there the kernel
# cannot keep listings, and an opendir handler would only add a request per listing.
KERNEL_LISTINGS = (mfusepy.fuse_version_major, mfusepy.fuse_version_minor) >= (3, 16)

P = ParamSpec("P")
R = TypeVar("R")


def changes_names(
    method: Callable[Concatenate[CortexOps, P], R],
) -> Callable[Concatenate[CortexOps, P], R]:
    """The operation may add, remove or move entries: cached listings are stale after it,
    whether it succeeded or failed half-way."""

    @functools.wraps(method)
    def changing(self: CortexOps, /, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(self, *args, **kwargs)
        finally:
            self.listings.changed()

    return changing


def _stat_of(st: os.stat_result) -> BackingStat:
    return BackingStat(
        st.st_mode, st.st_size, st.st_uid, st.st_gid, st.st_nlink,
        st.st_atime_ns, st.st_mtime_ns, st.st_ctime_ns,
    )  # fmt: skip


class CortexOps(mfusepy.Operations):  # type: ignore[misc]
    """Path-based operations; `caller` returns (uid, gid, pid) of the current request."""

    use_ns = True

    def __init__(
        self, backing: Backing, runner: str, caller: Caller, invalidator: Invalidator | None = None,
        attr_timeout: float = 1.0,
    ) -> None:  # fmt: skip
        self.backing = backing
        self.attr_timeout = attr_timeout
        self.runner = runner
        self.caller = caller
        self.table = HandleTable()
        self.listings = Listings()
        self.invalidate = invalidator or Invalidator()

    def init(self, path: str) -> None:
        self.invalidate.bind()

    def destroy(self, path: str) -> None:
        self.invalidate.stop()

    # -- facts ---------------------------------------------------------------
    def _node(self, path: str, changing: bool = False) -> Node:
        """Lookups of names outside the ABI find nothing; changes there meet a frozen root."""
        node = classify(path)
        if node.kind is Kind.NOT_IN_ROOT and changing:
            raise FsRefusal(errno.EROFS, f"the /ctx root is frozen: {path}")
        if node.kind in (Kind.NOT_IN_ROOT, Kind.INVALID):
            raise FsRefusal(errno.ENOENT, f"{path} is not part of the /ctx ABI")
        return node

    def _uid(self) -> int:
        return self.caller()[0]

    def _owner(self, node: Node) -> int:
        return self.backing.owner_of(node)

    def _perm(self, node: Node) -> Perm | None:
        if node.kind is not Kind.OBJECT:
            return None
        value = self.backing.read_value(f"{node.controls_path()}/perm")
        try:
            return parse_perm(value) if value else None
        except ValueError:
            return None

    def _process(self) -> int | None:
        """The process of the current request's thread (see `requesters.process`)."""
        return requesters.process(self.caller()[2])

    def _real(self, node: Node) -> str:
        return self.backing.real(node.path)

    def _supervisor(self, node: Node) -> int | None:
        target = alias_target(self.backing.real(f"{node.object_path()}.sock"))
        return supervisor_pid(target, node.object_path(), self._owner(node))

    def _derived(self, node: Node) -> bytes | None:
        """An agent's `status` and `pid` are what its runtime socket shows, not stored."""
        derived = node.kind is Kind.CONTROL and node.control in ("status", "pid")
        if not derived or node.object_class is not ObjectClass.AGENT:
            return None
        assert node.control is not None
        return render_state(node.control, self._supervisor(node))

    # -- reading -------------------------------------------------------------
    def getattr(self, path: str, fh: Any = None) -> dict[str, int]:
        if path == "/status":
            root = os.lstat(self.backing.root)
            return presented(classify(path), _stat_of(root), 0, None)
        node = self._node(path)
        derived = self._derived(node)
        if derived is not None:
            st = os.lstat(self.backing.real(node.controls_path()))
            fake = BackingStat(
                stat.S_IFREG | 0o444, len(derived), 0, 0, 1,
                st.st_atime_ns, st.st_mtime_ns, st.st_ctime_ns,
            )  # fmt: skip
            return presented(node, fake, self._owner(node), None)
        try:
            st = os.lstat(self._real(node))
        except FileNotFoundError:
            if not self.table.is_pending(node.path):
                raise
            st = os.lstat(self.backing.real(node.parent))
            fake = BackingStat(
                stat.S_IFREG | 0o600, 0, 0, 0, 1, st.st_atime_ns, st.st_mtime_ns, st.st_ctime_ns
            )
            return presented(node, fake, self._owner(node), None)
        return presented(node, _stat_of(st), self._owner(node), self._perm(node))

    def opendir(self, path: str) -> int:
        """1 if the kernel may keep its cached listing of `path` (CortexFUSE.opendir)."""
        return int(self.listings.kernel_copy_current(path))

    if not KERNEL_LISTINGS:  # mfusepy leaves libfuse's own (request-free) opendir in place
        opendir.libfuse_ignore = True  # type: ignore[attr-defined]

    def readdir(self, path: str, fh: int) -> tuple[bytes, ...]:
        """Entry names, encoded, for CortexFUSE's filler loop; `.` and `..` first."""
        if path == "/":
            return ROOT_LISTING
        names = self.listings.names(
            path, lambda: os.listdir(os.fsencode(self._real(self._node(path))))
        )
        self.listings.served(path)
        if self.table.pending:  # controls created but not yet written show up too
            prefix = path.rstrip("/") + "/"
            pending = [p[len(prefix) :] for p in list(self.table.pending) if p.startswith(prefix)]
            extra = [os.fsencode(n) for n in pending if "/" not in n]
            names += tuple(n for n in extra if n not in names)
        return names

    def readlink(self, path: str) -> str:
        return os.readlink(self._real(self._node(path)))

    def open(self, path: str, fi: Any) -> int:
        node = self._node(path)
        flags = fi.flags
        if flags & os.O_ACCMODE == os.O_RDONLY:
            if node.control in SECRET_CONTROLS:  # the owner lookup only where it matters
                decide.open_read(node, self._uid(), self._owner(node))
            derived = self._derived(node)
            if derived is not None:
                fi.fh = self.table.add(BytesHandle(derived))
                fi.direct_io = 1  # the size changes without a write the kernel sees
            elif node.kind is Kind.STATUS:
                fi.fh = self.table.add(BytesHandle(STATUS_BYTES))
                fi.keep_cache = 1
            else:
                # Opened lazily: with keep_cache most opens are served from the page cache
                # and never read, so the backing open would be wasted work. Controls are
                # read on every open anyway, and opened now: one created but not yet
                # written has no value, so it is ENOENT here rather than the empty file its
                # pending stat (or a stale cached size) would let the kernel read.
                control = node.kind is Kind.CONTROL
                fd = os.open(self._real(node), os.O_RDONLY | os.O_NOFOLLOW) if control else -1
                fi.fh = self.table.add(FdHandle(fd, node, writable=False))
                # Controls change by whole-file replacement: re-read them on every open.
                # Everything else changes only through this mount, which the kernel sees.
                fi.keep_cache = 0 if node.kind in (Kind.CONTROL, Kind.CONTROL_TEMP) else 1
            fi.noflush = 1
            return 0
        if node.kind is Kind.STATUS:
            raise FsRefusal(errno.EROFS, "status is read-only")
        if node.control == "log" and flags & os.O_APPEND and not flags & os.O_TRUNC:
            decide.log_append(node, self._uid(), self._owner(node))
            fi.fh = self.table.add(LogHandle(node))
            fi.direct_io = 1
            return 0
        plan = decide.open_write(node, self._uid(), self._owner(node))
        fi.fh = self._open_plan(node, plan, flags, create_mode=None)
        return 0

    def _open_plan(self, node: Node, plan: Plan, flags: int, create_mode: int | None) -> int:
        if plan is Plan.CONTROL:
            truncated = bool(flags & os.O_TRUNC) or not self.backing.exists(node.path)
            handle = ControlHandle(node, truncated, self._process() if truncated else None)
            fh = self.table.add(handle)
            if handle.registered:  # listed from now on, before it exists on disk
                self.listings.entries_changed(node.parent)
            return fh
        real = self._real(node)
        open_flags = os.O_RDWR | os.O_NOFOLLOW | (flags & (os.O_TRUNC | os.O_APPEND))
        if create_mode is not None:
            open_flags |= os.O_CREAT | (flags & os.O_EXCL)
            mode = 0o600 if plan is Plan.TEMP else create_mode & 0o7777
            fd = os.open(real, open_flags, mode)
            if plan is Plan.PLAIN:
                os.fchown(fd, self._owner(node), self.caller()[1])
        else:
            fd = os.open(real, open_flags)
        return self.table.add(FdHandle(fd, node, writable=True))

    def create(self, path: str, mode: int, fi: Any) -> int:
        """One new name, in its own directory: only that listing is dropped."""
        node = self._node(path, changing=True)
        try:
            plan = decide.create(node, self._uid(), self._owner(node))
            fi.fh = self._open_plan(node, plan, fi.flags | os.O_TRUNC, create_mode=mode)
        finally:
            self.listings.entries_changed(node.parent)
        return 0

    def read(self, path: str, size: int, offset: int, fi: Any) -> bytes:
        handle = self.table.get(fi.fh)
        if isinstance(handle, BytesHandle):
            return handle.data[offset : offset + size]
        if isinstance(handle, FdHandle):
            if handle.fd < 0:
                handle.fd = os.open(self._real(handle.node), os.O_RDONLY | os.O_NOFOLLOW)
            return os.pread(handle.fd, size, offset)
        if isinstance(handle, ControlHandle):
            data = self.backing.read_bytes(handle.node.path, MAX_CONTROL_BYTES) or b""
            return data[offset : offset + size]
        raise FsRefusal(errno.EBADF, "unknown handle")

    # -- writing -------------------------------------------------------------
    def _settle(self, handle: ControlHandle) -> None:
        """A created control stops being listed as pending (it exists now, or never will)."""
        if handle.registered:
            self.table.settle(handle)
            self.listings.entries_changed(handle.node.parent)

    def _commit_control(self, node: Node, data: bytes) -> None:
        assert node.control is not None
        self._check_value(node, data)
        self._replace(node.path, data)
        self._changed_control(node)

    def _replace(self, path: str, data: bytes) -> None:
        """Replace the file at `path` whole; it may not have existed (a control's first
        value). A new value of an existing file changes no name, so every listing stays;
        a first value adds one, and a write that failed half-way may leave its temp: then
        only that directory's listing is dropped."""
        real = self.backing.real(path)
        named = os.path.lexists(real)
        replaced = False
        try:
            atomic_write(real, data)
            replaced = True
        finally:
            if not (named and replaced):
                self.listings.entries_changed(os.path.dirname(path))

    def _check_value(self, node: Node, data: bytes) -> None:
        """The value's shape, then the rules that depend on who writes it and where."""
        assert node.control is not None
        text = check_control(node.control, data)
        if node.control in decide.IDENTITY_CONTROLS:
            uid, gid, pid = self.caller()
            gids = frozenset({gid} | (requesters.groups(pid) if uid else set()))
            label = node.control == "label" and uid != 0
            users = self.backing.type_users(node.controls_path()) if label else {}
            decide.control_value(node, Writer(uid, gids), text, users)
        refuse_storage_rows(node, data, self.backing.root)

    def _changed_control(self, node: Node) -> None:
        if node.control == "perm":
            self.invalidate(node.object_path())  # the object's mode bits show perm

    def write(self, path: str, data: bytes, offset: int, fi: Any) -> int:
        handle = self.table.get(fi.fh)
        if isinstance(handle, ControlHandle):
            if offset != 0:
                raise FsRefusal(errno.EINVAL, "controls are written whole, at offset 0")
            # A write, even a refused one, is the handle's answer: flush adds nothing.
            handle.committed = True
            self._settle(handle)
            self._commit_control(handle.node, data)
            return len(data)
        if isinstance(handle, LogHandle):
            old = self.backing.read_bytes(handle.node.path, MAX_CONTROL_BYTES) or b""
            self._replace(handle.node.path, appended_log(old, data))
            return len(data)
        if isinstance(handle, FdHandle) and handle.writable:
            temp = handle.node.kind is Kind.CONTROL_TEMP
            if temp and offset + len(data) > MAX_CONTROL_BYTES:
                raise FsRefusal(errno.EMSGSIZE, "control value too large")
            return os.pwrite(handle.fd, data, offset)
        raise FsRefusal(errno.EBADF, "handle not open for writing")

    def truncate(self, path: str, length: int, fh: Any = None) -> int:
        node = self._node(path)
        plan = decide.truncate(node, self._uid(), self._owner(node), length)
        handle = self.table.get(fh.fh) if fh is not None else None
        if plan is Plan.CONTROL:
            if isinstance(handle, ControlHandle):
                handle.truncated = True  # committed (validated) at the write or at flush
                handle.truncated_by = self._process()
                return 0
            self._commit_control(node, b"")
            return 0
        if isinstance(handle, FdHandle):
            os.ftruncate(handle.fd, length)
        else:
            os.truncate(self._real(node), length)
        return 0

    def flush(self, path: str, fi: Any) -> int:
        """`: > ctl` commits "" here, where an invalid result reaches `close()`; the close
        of an inherited duplicate (another process) commits nothing (ControlHandle)."""
        handle = self.table.get(fi.fh)
        if isinstance(handle, ControlHandle) and handle.truncated and not handle.committed:
            if handle.truncated_by is not None and self._process() != handle.truncated_by:
                return 0
            handle.committed = True
            self._settle(handle)
            self._commit_control(handle.node, b"")  # `: > ctl` is a whole-file write of ""
        return 0

    def fsync(self, path: str, datasync: int, fi: Any) -> int:
        handle = self.table.get(fi.fh)
        if isinstance(handle, FdHandle) and handle.writable:
            os.fsync(handle.fd)
        return 0

    def release(self, path: str, fi: Any) -> int:
        handle = self.table.pop(fi.fh)
        if isinstance(handle, ControlHandle):
            self._settle(handle)
        return 0

    # -- namespace -----------------------------------------------------------
    @changes_names
    def mkdir(self, path: str, mode: int) -> int:
        node = self._node(path, changing=True)
        uid, gid, _pid = self.caller()
        plan = decide.mkdir(node, uid, self._owner(node))
        if self.backing.exists(node.path):
            raise FsRefusal(errno.EEXIST, f"{path} exists")
        if plan is Plan.OBJECT:
            self._create_object(node, uid, gid)
        elif plan is Plan.USER_HOME:
            assert node.home_uid is not None
            self.backing.write_entries(home_entries(node.home_uid))
        else:
            os.mkdir(self._real(node), mode & 0o7777)
            if plan is Plan.SHARED_SPACE:
                os.chown(self._real(node), uid, gid)
        return 0

    def _create_object(self, node: Node, uid: int, gid: int) -> None:
        assert node.object_class is not None and node.object_name is not None
        if self.backing.exists(node.object_path()):
            raise FsRefusal(errno.EEXIST, f"{node.object_path()} exists")
        if "/" in node.object_name and not self.backing.exists(node.parent):
            raise FsRefusal(errno.ENOENT, f"{node.parent} does not exist")
        owner = uid if node.home_uid is None else node.home_uid
        entries = object_entries(
            node.object_class, (node.class_dir or "").lstrip("/"), node.object_name, owner, gid,
            self.runner,
        )  # fmt: skip
        self.backing.write_entries(entries)

    @changes_names
    def rmdir(self, path: str) -> int:
        node = self._node(path, changing=True)
        empty = self.backing.is_empty_dir(node.path) if self.backing.exists(node.path) else True
        decide.rmdir(node, self._uid(), self._owner(node), empty)
        os.rmdir(self._real(node))
        return 0

    @changes_names
    def unlink(self, path: str) -> int:
        node = self._node(path, changing=True)
        agent = node.kind is Kind.OBJECT and node.object_class is ObjectClass.AGENT
        live = agent and self._supervisor(node) is not None
        plan = decide.unlink(node, self._uid(), self._owner(node), live)
        if not self.backing.exists(node.path):
            raise FsRefusal(errno.ENOENT, f"{path} does not exist")
        if plan is Plan.OBJECT_TRIPLE:
            self.backing.remove_object(node)
            self.invalidate(f"{node.object_path()}.d", f"{node.object_path()}.sock")
        else:
            os.unlink(self._real(node))
        return 0

    @changes_names
    def rename(self, old: str, new: str, flags: int = 0) -> int:
        if flags & ~RENAME_NOREPLACE:
            raise FsRefusal(errno.EINVAL, "only RENAME_NOREPLACE is supported")
        src, dst = self._node(old, changing=True), self._node(new, changing=True)
        plan = decide.rename(src, dst, self._uid(), self._owner(src), self._owner(dst))
        # One request thread and a backing store nobody else can write: nothing
        # can create `dst` between this check and the rename below.
        if flags & RENAME_NOREPLACE and os.path.lexists(self._real(dst)):
            raise FsRefusal(errno.EEXIST, f"{new} exists")
        if plan is Plan.COMMIT_CONTROL:
            data = self.backing.read_bytes(src.path, MAX_CONTROL_BYTES + 1)
            if data is None:
                raise FsRefusal(errno.ENOENT, f"{old} does not exist")
            assert dst.control is not None
            self._check_value(dst, data)
            fd = os.open(self._real(src), os.O_RDONLY | os.O_NOFOLLOW)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        os.rename(self._real(src), self._real(dst))
        fsync_dir(self.backing.real(dst.parent))
        if plan is Plan.COMMIT_CONTROL:
            self._changed_control(dst)
        return 0

    def chmod(self, path: str, mode: int) -> int:
        node = self._node(path, changing=True)
        has_perm = node.kind is Kind.OBJECT and self.backing.exists(f"{node.controls_path()}/perm")
        plan = decide.chmod(node, self._uid(), self._owner(node), has_perm)
        if plan is Plan.PERM_CONTROL:
            text = perm_from_mode(mode).render() + "\n"
            self._replace(f"{node.controls_path()}/perm", text.encode())
        else:
            os.chmod(self._real(node), mode & 0o7777)
        return 0

    def chown(self, path: str, uid: int, gid: int) -> int:
        raise FsRefusal(errno.EPERM, "ownership derives from the ABI path and .d/owner")

    @changes_names
    def symlink(self, target: str, source: str) -> int:
        node = self._node(target, changing=True)
        decide.symlink(node, self._uid(), self._owner(node), source)
        os.symlink(source, self._real(node))
        return 0

    def link(self, target: str, source: str) -> int:
        raise FsRefusal(errno.EPERM, "hard links are not part of the ABI")

    def mknod(self, path: str, mode: int, dev: int) -> int:
        raise FsRefusal(errno.EROFS, "special files are not part of the ABI")

    def utimens(self, path: str, times: tuple[int, int] | None = None) -> int:
        node = self._node(path)
        plan = decide.open_write(node, self._uid(), self._owner(node))
        if plan is Plan.CONTROL:
            return 0  # a control's times follow its last replacement
        if times is None:
            os.utime(self._real(node))
        else:
            os.utime(self._real(node), ns=times)
        return 0

    def statfs(self, path: str) -> dict[str, int]:
        sv = os.statvfs(self.backing.root)
        keys = ("f_bsize", "f_frsize", "f_blocks", "f_bfree", "f_bavail", "f_files", "f_ffree")
        return {key: getattr(sv, key) for key in keys} | {"f_namemax": 255}

    # -- xattrs --------------------------------------------------------------
    def _xattrs(self, path: str) -> dict[str, bytes]:
        node = self._node(path)
        ttl = round(self.attr_timeout * 1000)
        derived = STATUS_BYTES if node.kind is Kind.STATUS else self._derived(node)
        if derived is not None:
            facts = Facts(False, False, len(derived), True, self.backing.root, ttl)
            return xattr_values(node, facts)
        st = os.lstat(self._real(node))
        is_exec = stat.S_ISREG(st.st_mode) and bool(st.st_mode & 0o100)
        facts = Facts(stat.S_ISDIR(st.st_mode), is_exec, st.st_size, False, self.backing.root, ttl)
        return xattr_values(node, facts)

    def getxattr(self, path: str, name: str, position: int = 0) -> bytes:
        if not name.startswith(PREFIX):  # e.g. security.capability, asked on every write
            raise FsRefusal(errno.ENODATA, f"no attribute {name}")
        values = self._xattrs(path)
        if name not in values:
            raise FsRefusal(errno.ENODATA, f"no attribute {name}")
        return values[name]

    def listxattr(self, path: str) -> list[str]:
        return names(self._node(path))

    def setxattr(self, path: str, name: str, value: bytes, options: int, position: int = 0) -> int:
        raise FsRefusal(errno.EPERM, "user.cortexfs.* attributes are read-only")

    def removexattr(self, path: str, name: str) -> int:
        raise FsRefusal(errno.EPERM, "user.cortexfs.* attributes are read-only")
