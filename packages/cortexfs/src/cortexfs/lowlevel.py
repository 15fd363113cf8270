"""ctypes declarations for libfuse3's low-level API (`fuse_lowlevel.h`, libfuse 3.14 ABI).

Only what the adapter uses: the request callbacks up to `create`, the reply functions,
directory entries, invalidation notices and the session lifecycle. Layouts are x86-64 and
aarch64 Linux (LP64), which is what Debian's `libfuse3-3` ships for CI.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from typing import Any

c = ctypes
Ino = c.c_uint64
Req = c.c_void_p


class Stat(c.Structure):
    """struct stat (LP64 Linux, glibc)."""

    _fields_ = (
        ("st_dev", c.c_uint64), ("st_ino", c.c_uint64), ("st_nlink", c.c_uint64),
        ("st_mode", c.c_uint32), ("st_uid", c.c_uint32), ("st_gid", c.c_uint32),
        ("pad0", c.c_int), ("st_rdev", c.c_uint64), ("st_size", c.c_int64),
        ("st_blksize", c.c_int64), ("st_blocks", c.c_int64),
        ("atime_sec", c.c_int64), ("atime_nsec", c.c_int64),
        ("mtime_sec", c.c_int64), ("mtime_nsec", c.c_int64),
        ("ctime_sec", c.c_int64), ("ctime_nsec", c.c_int64),
        ("reserved", c.c_int64 * 3),
    )  # fmt: skip


class FileInfo(c.Structure):
    """struct fuse_file_info as of libfuse 3.14 (bit-fields in declaration order)."""

    _fields_ = (
        ("flags", c.c_int),
        ("writepage", c.c_uint, 1), ("direct_io", c.c_uint, 1), ("keep_cache", c.c_uint, 1),
        ("flush", c.c_uint, 1), ("nonseekable", c.c_uint, 1), ("flock_release", c.c_uint, 1),
        ("cache_readdir", c.c_uint, 1), ("noflush", c.c_uint, 1),
        ("padding", c.c_uint, 24), ("padding2", c.c_uint, 32),
        ("fh", c.c_uint64), ("lock_owner", c.c_uint64), ("poll_events", c.c_uint32),
    )  # fmt: skip


class EntryParam(c.Structure):
    _fields_ = (
        ("ino", Ino), ("generation", c.c_uint64), ("attr", Stat),
        ("attr_timeout", c.c_double), ("entry_timeout", c.c_double),
    )  # fmt: skip


class Context(c.Structure):
    _fields_ = (("uid", c.c_uint32), ("gid", c.c_uint32), ("pid", c.c_int32), ("umask", c.c_uint32))


class StatVfs(c.Structure):
    _fields_ = (
        ("f_bsize", c.c_ulong), ("f_frsize", c.c_ulong), ("f_blocks", c.c_uint64),
        ("f_bfree", c.c_uint64), ("f_bavail", c.c_uint64), ("f_files", c.c_uint64),
        ("f_ffree", c.c_uint64), ("f_favail", c.c_uint64), ("f_fsid", c.c_ulong),
        ("f_flag", c.c_ulong), ("f_namemax", c.c_ulong), ("spare", c.c_int * 6),
    )  # fmt: skip


class Args(c.Structure):
    _fields_ = (("argc", c.c_int), ("argv", c.POINTER(c.c_char_p)), ("allocated", c.c_int))


PFI = c.POINTER(FileInfo)
Cb = c.CFUNCTYPE
Name = c.c_char_p

# The callbacks in struct fuse_lowlevel_ops order; None marks one left unset (NULL), which
# libfuse answers itself (ENOSYS, or success for release-type requests).
CALLBACKS: dict[str, Any] = {
    "init": None,
    "destroy": None,
    "lookup": Cb(None, Req, Ino, Name),
    "forget": Cb(None, Req, Ino, c.c_uint64),
    "getattr": Cb(None, Req, Ino, PFI),
    "setattr": Cb(None, Req, Ino, c.POINTER(Stat), c.c_int, PFI),
    "readlink": Cb(None, Req, Ino),
    "mknod": Cb(None, Req, Ino, Name, c.c_uint32, c.c_uint64),
    "mkdir": Cb(None, Req, Ino, Name, c.c_uint32),
    "unlink": Cb(None, Req, Ino, Name),
    "rmdir": Cb(None, Req, Ino, Name),
    "symlink": Cb(None, Req, Name, Ino, Name),
    "rename": Cb(None, Req, Ino, Name, Ino, Name, c.c_uint),
    "link": Cb(None, Req, Ino, Ino, Name),
    "open": Cb(None, Req, Ino, PFI),
    "read": Cb(None, Req, Ino, c.c_size_t, c.c_int64, PFI),
    "write": Cb(None, Req, Ino, c.c_void_p, c.c_size_t, c.c_int64, PFI),
    "flush": Cb(None, Req, Ino, PFI),
    "release": Cb(None, Req, Ino, PFI),
    "fsync": Cb(None, Req, Ino, c.c_int, PFI),
    "opendir": Cb(None, Req, Ino, PFI),
    "readdir": Cb(None, Req, Ino, c.c_size_t, c.c_int64, PFI),
    "releasedir": Cb(None, Req, Ino, PFI),
    "fsyncdir": Cb(None, Req, Ino, c.c_int, PFI),
    "statfs": Cb(None, Req, Ino),
    "setxattr": Cb(None, Req, Ino, Name, c.c_void_p, c.c_size_t, c.c_int),
    "getxattr": Cb(None, Req, Ino, Name, c.c_size_t),
    "listxattr": Cb(None, Req, Ino, c.c_size_t),
    "removexattr": Cb(None, Req, Ino, Name),
    "access": Cb(None, Req, Ino, c.c_int),
    "create": Cb(None, Req, Ino, Name, c.c_uint32, PFI),
}


class Operations(c.Structure):
    """The head of struct fuse_lowlevel_ops; libfuse zero-fills the members past `create`
    because fuse_session_new is told this (smaller) size."""

    _fields_ = tuple((name, proto or c.c_void_p) for name, proto in CALLBACKS.items())


# FUSE_SET_ATTR_* bits of setattr's to_set.
SET_MODE, SET_UID, SET_GID, SET_SIZE = 1 << 0, 1 << 1, 1 << 2, 1 << 3
SET_ATIME, SET_MTIME, SET_ATIME_NOW, SET_MTIME_NOW = 1 << 4, 1 << 5, 1 << 7, 1 << 8

_SIGNATURES: dict[str, tuple[list[Any], Any]] = {
    "fuse_req_ctx": ([Req], c.POINTER(Context)),
    "fuse_reply_err": ([Req, c.c_int], c.c_int),
    "fuse_reply_none": ([Req], None),
    "fuse_reply_entry": ([Req, c.POINTER(EntryParam)], c.c_int),
    "fuse_reply_create": ([Req, c.POINTER(EntryParam), PFI], c.c_int),
    "fuse_reply_attr": ([Req, c.POINTER(Stat), c.c_double], c.c_int),
    "fuse_reply_readlink": ([Req, c.c_char_p], c.c_int),
    "fuse_reply_open": ([Req, PFI], c.c_int),
    "fuse_reply_write": ([Req, c.c_size_t], c.c_int),
    "fuse_reply_buf": ([Req, c.c_char_p, c.c_size_t], c.c_int),
    "fuse_reply_statfs": ([Req, c.POINTER(StatVfs)], c.c_int),
    "fuse_reply_xattr": ([Req, c.c_size_t], c.c_int),
    "fuse_add_direntry": (
        [Req, c.c_void_p, c.c_size_t, c.c_char_p, c.POINTER(Stat), c.c_int64],
        c.c_size_t,
    ),
    "fuse_lowlevel_notify_inval_inode": ([c.c_void_p, Ino, c.c_int64, c.c_int64], c.c_int),
    "fuse_lowlevel_notify_inval_entry": ([c.c_void_p, Ino, c.c_char_p, c.c_size_t], c.c_int),
    "fuse_session_new": (
        [c.POINTER(Args), c.POINTER(Operations), c.c_size_t, c.c_void_p],
        c.c_void_p,
    ),
    "fuse_session_mount": ([c.c_void_p, c.c_char_p], c.c_int),
    "fuse_session_loop": ([c.c_void_p], c.c_int),
    "fuse_session_unmount": ([c.c_void_p], None),
    "fuse_session_destroy": ([c.c_void_p], None),
    "fuse_set_signal_handlers": ([c.c_void_p], c.c_int),
    "fuse_remove_signal_handlers": ([c.c_void_p], None),
    "fuse_daemonize": ([c.c_int], c.c_int),
}


class FuseUnavailable(OSError):
    """libfuse3 is not installed (Debian: libfuse3-3)."""


def load() -> ctypes.CDLL:
    """libfuse3 with the argument and result types of every function used declared."""
    name = ctypes.util.find_library("fuse3") or "libfuse3.so.3"
    try:
        lib = ctypes.CDLL(name)
    except OSError as exc:
        raise FuseUnavailable(f"libfuse3 is not loadable: {exc}") from exc
    for func, (argtypes, restype) in _SIGNATURES.items():
        proc = getattr(lib, func)
        proc.argtypes, proc.restype = argtypes, restype
    return lib
