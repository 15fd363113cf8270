"""mfusepy, with the two libfuse3 arguments its path-based API drops and a leaner listing.

mfusepy is the maintained binding the design uses (docs/cortexfs/design.md),
but its `rename_fuse_3` discards rename(2)'s flags, so RENAME_NOREPLACE would
silently replace the target, and its `utimens` passes UTIME_NOW/UTIME_OMIT
through as if they were nanosecond counts, so `touch` would set a time in
1970. Both are repaired here, at the binding seam, and nowhere else.

Listings: libfuse takes a directory's entries one call of its `filler` at a time, and
through mfusepy each call type-checks the entry, encodes its name, fills a stat and
converts five arguments by their ctypes argtypes (about 0.7 us of a listing's 200
entries' worth). Here the operations hand over names already encoded, the filler gets
no stat (the kernel's dirent carries only a type, unknown either way) and is called
through a prototype without argtypes, with its constant arguments made once (about
0.2 us). `opendir` tells the kernel to cache the listing, and whether its cached copy
is still current; libfuse honours both from 3.16 on (libfuse issue #821).
"""

from __future__ import annotations

import ctypes
import functools
import time
from typing import Any

import mfusepy  # type: ignore[import-untyped]

# <sys/stat.h>: tv_nsec sentinels of utimensat(2).
UTIME_NOW = (1 << 30) - 1
UTIME_OMIT = (1 << 30) - 2

# fuse_fill_dir_t's off_t offset (0: libfuse keeps the entries) and its flags (none).
NO_OFFSET = ctypes.c_int64(0)
NO_FLAGS = ctypes.c_int(0)


@functools.cache
def raw_filler(address: int) -> Any:
    """libfuse's filler at `address`, called with arguments ctypes passes as they are."""
    return ctypes.CFUNCTYPE(ctypes.c_int)(address)


class CortexFUSE(mfusepy.FUSE):  # type: ignore[misc]
    def opendir(self, path: bytes, fip: Any) -> int:
        fi = fip.contents
        fi.fh = 0
        fi.cache_readdir = 1
        fi.keep_cache = self.operations.opendir(path.decode(self.encoding, self.errors))
        return 0

    def readdir_fuse_3(
        self, path: bytes, buf: Any, filler: Any, offset: int, fip: Any, flags: int
    ) -> int:
        names = self.operations.readdir(path.decode(self.encoding, self.errors), 0)
        fill = raw_filler(ctypes.cast(filler, ctypes.c_void_p).value)
        buffer = ctypes.c_void_p(buf)
        for name in names:
            if fill(buffer, name, None, NO_OFFSET, NO_FLAGS):
                break  # out of memory, which libfuse records and answers itself
        return 0

    def rename_fuse_3(self, old: bytes, new: bytes, flags: int) -> int:
        return int(
            self.operations.rename(
                old.decode(self.encoding, self.errors),
                new.decode(self.encoding, self.errors),
                flags,
            )
        )

    def utimens_fuse_3(self, path: bytes | None, buf: Any, fip: Any) -> int:
        if not buf or path is None:
            return int(super().utimens_fuse_3(path, buf, fip))
        stamps = (buf.contents.actime, buf.contents.modtime)
        if all(ts.tv_nsec not in (UTIME_NOW, UTIME_OMIT) for ts in stamps):
            return int(super().utimens_fuse_3(path, buf, fip))
        name = path.decode(self.encoding, self.errors)
        now = time.time_ns()
        current: dict[str, int] | None = None
        resolved: list[int] = []
        for ts, key in zip(stamps, ("st_atime", "st_mtime"), strict=True):
            if ts.tv_nsec == UTIME_NOW:
                resolved.append(now)
            elif ts.tv_nsec == UTIME_OMIT:
                if current is None:
                    current = self.operations.getattr(name)
                resolved.append(int(current[key]))
            else:
                resolved.append(ts.tv_sec * 10**9 + ts.tv_nsec)
        return int(self.operations.utimens(name, (resolved[0], resolved[1])))
