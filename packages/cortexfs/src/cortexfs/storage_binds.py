"""An agent's mount table may never name the backing storage: a bind of it (or of a
directory holding it) would reach every control without the filesystem's checks. The
mount daemon, which alone knows where its storage is, refuses such rows when the table
is written (EACCES), so no launch ever sees one."""

from __future__ import annotations

import errno
import os

from cortexfs.errors import FsRefusal
from cortexfs.layout import Node
from cortexfs.mount_table import parse_mount_table
from cortexfs.objects import ObjectClass


def overlaps(source: str, storage: str) -> bool:
    """Is `source` the same directory as `storage`, above it or inside it?"""
    source = os.path.realpath(source).rstrip("/") or "/"
    storage = os.path.realpath(storage).rstrip("/")
    return (
        source == storage
        or storage.startswith(source.rstrip("/") + "/")
        or (source.startswith(storage + "/"))
    )


def refuse_storage_rows(node: Node, data: bytes, storage: str) -> None:
    if node.object_class is not ObjectClass.AGENT or node.control != "mount":
        return
    for row in parse_mount_table(data.decode("utf-8")):
        if overlaps(row.source, storage):
            mode = "writable" if row.writable else "read-only"
            raise FsRefusal(
                errno.EACCES,
                f"mount: {row.source} is or holds the CortexFS storage; it is never bound "
                f"({mode} or not): use /ctx",
            )
