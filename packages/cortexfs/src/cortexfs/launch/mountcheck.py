"""Is a path the root of a live CortexFS FUSE mount? The launcher binds only such a /ctx
into a sandbox, and the object runner decides nothing on a tree that is not one."""

from __future__ import annotations

import os

FSTYPE = "fuse.cortexfs"
_ESCAPES = {"\\040": " ", "\\011": "\t", "\\012": "\n", "\\134": "\\"}


def _decode(field: str) -> str:
    for escaped, plain in _ESCAPES.items():
        field = field.replace(escaped, plain)
    return field


def mount_fstype(path: str, mountinfo: str = "/proc/self/mountinfo") -> str | None:
    """The filesystem type of the mount whose mount point is exactly `path`."""
    target = os.path.realpath(path)
    found = None
    try:
        with open(mountinfo, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                before, sep, after = line.partition(" - ")
                head = before.split(" ")
                if sep and len(head) > 4 and _decode(head[4]) == target:
                    found = after.split(" ", 1)[0]  # the last mount on a point wins
    except OSError:
        return None
    return found


def cortexfs_mounts(mountinfo: str = "/proc/self/mountinfo") -> tuple[str, ...]:
    """Every mount point of a live CortexFS mount, in mount order."""
    found = []
    try:
        with open(mountinfo, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                before, sep, after = line.partition(" - ")
                head = before.split(" ")
                if sep and len(head) > 4 and after.split(" ", 1)[0] == FSTYPE:
                    found.append(_decode(head[4]))
    except OSError:
        return ()
    return tuple(dict.fromkeys(found))


def is_cortexfs_mount(path: str) -> bool:
    return mount_fstype(path) == FSTYPE
