"""mfusepy, with the two libfuse3 arguments its path-based API drops.

mfusepy is the maintained binding the design uses (docs/cortexfs/design.md),
but its `rename_fuse_3` discards rename(2)'s flags, so RENAME_NOREPLACE would
silently replace the target, and its `utimens` passes UTIME_NOW/UTIME_OMIT
through as if they were nanosecond counts, so `touch` would set a time in
1970. Both are repaired here, at the binding seam, and nowhere else.
"""

from __future__ import annotations

import time
from typing import Any

import mfusepy  # type: ignore[import-untyped]

# <sys/stat.h>: tv_nsec sentinels of utimensat(2).
UTIME_NOW = (1 << 30) - 1
UTIME_OMIT = (1 << 30) - 2


class CortexFUSE(mfusepy.FUSE):  # type: ignore[misc]
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
