"""Large file contents by reference: hashed once while read, streamed when written.

A registry's resources can be large (up to `format.resources.MAX_RESOURCE_BYTES`
each). Holding them in memory from load to write would let a registry exhaust
the machine's memory with many files that are each under the cap
(docs/upskill/security.md), so a file above `STREAM_THRESHOLD` travels as a
`FileBlob`: its path, size and sha256, taken in one chunked read. The copy into
the journal's staging directory streams it again and fails whole if the file
is no longer exactly what was hashed.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from upskill.errors import UpskillError

STREAM_THRESHOLD = 256 * 1024
CHUNK = 1024 * 1024
_READ_FLAGS = (
    os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | os.O_CLOEXEC
)


class BlobChanged(UpskillError):
    """A referenced file changed between hashing and copying."""


@dataclass(frozen=True)
class FileBlob:
    path: Path
    size: int
    sha256: str


Payload = bytes | FileBlob


def payload_size(data: Payload) -> int:
    return data.size if isinstance(data, FileBlob) else len(data)


def payload_digest(data: Payload) -> str:
    return data.sha256 if isinstance(data, FileBlob) else hashlib.sha256(data).hexdigest()


def digest_fd(fd: int, limit: int) -> tuple[str, int]:
    """(sha256, size) of what is left in `fd`, read in chunks; EFBIG past `limit` bytes
    (a file growing while read)."""
    digest = hashlib.sha256()
    size = 0
    while chunk := os.read(fd, CHUNK):
        size += len(chunk)
        if size > limit:
            raise OSError(errno.EFBIG, "file grew past the size limit while being read")
        digest.update(chunk)
    return digest.hexdigest(), size


def copy_blob(blob: FileBlob, out_fd: int) -> None:
    """Stream `blob` into `out_fd`, checking it is still the file that was hashed."""
    try:
        fd = os.open(blob.path, _READ_FLAGS)
    except OSError as exc:
        raise BlobChanged(f"cannot read it again: {exc.strerror}", path=blob.path) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise BlobChanged("is no longer a regular file", path=blob.path)
        digest = hashlib.sha256()
        size = 0
        while chunk := os.read(fd, CHUNK):
            size += len(chunk)
            if size > blob.size:
                break
            digest.update(chunk)
            view = memoryview(chunk)
            while view:
                view = view[os.write(out_fd, view) :]
    finally:
        os.close(fd)
    if size != blob.size or digest.hexdigest() != blob.sha256:
        raise BlobChanged("changed while upskill was installing it; run again", path=blob.path)
