"""Where ctxkit deliberately answers differently from the reference.

Maps `category/case` to `(deviation id, what ctxkit does instead)`. Every id is
listed with its reason in packages/cmx-core/README.md ("Deliberate deviations");
the replay checks ctxkit against `port` and keeps the reference's answer beside it.
"""

from __future__ import annotations

from typing import Any

_OUTSIDE = ("symlink-leaves-tree", {"error": "UnsafePathError: symlink points outside the tree"})
_VERSION = ("format-version-1-only", {"error": "FileFormatError: unsupported lockfile version"})

DEVIATIONS: dict[str, tuple[str, dict[str, Any]]] = {
    "checksum-tree/symlink-outside-file": _OUTSIDE,
    "checksum-tree/symlink-outside-dir": _OUTSIDE,
    "checksum-tree/symlink-outside-chain": _OUTSIDE,
    "lockfile-roundtrip/version-2": _VERSION,
    "lockfile-roundtrip/version-0": _VERSION,
}
