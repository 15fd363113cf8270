"""Large file contents by reference: hashed once while read, streamed when written.

A registry's resources can be large (up to `format.resources.MAX_RESOURCE_BYTES`
each). Holding them in memory from load to write would let a registry exhaust
the machine's memory with many files that are each under the cap
(docs/upskill/security.md), so a file above `STREAM_THRESHOLD` travels as a
`FileBlob`: its path, size and sha256, taken in one chunked read. The copy into
the journal's staging directory streams it again and fails whole if the file
is no longer exactly what was hashed (`upskill.fsio`).
"""

from __future__ import annotations

import errno
import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from upskill.errors import UpskillError

if TYPE_CHECKING:
    from hashlib import _Hash as Hash

STREAM_THRESHOLD = 256 * 1024
CHUNK = 1024 * 1024


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


def feed(
    digest: Hash,
    fd: int,
    *,
    expected: int,
    limit: int | None = None,
    sink: Callable[[bytes], None] | None = None,
) -> int:
    """Feed the rest of `fd` to `digest` (and `sink`) in chunks; the byte count. A file of
    the `expected` size (fstat's) takes one read: a short read of a regular file is its
    end. Past `limit` bytes (a file growing while read), EFBIG."""
    want = expected + 1 if expected < CHUNK else CHUNK
    size = 0
    while chunk := os.read(fd, want):
        size += len(chunk)
        if limit is not None and size > limit:
            raise OSError(errno.EFBIG, "file grew past the size limit while being read")
        digest.update(chunk)
        if sink is not None:
            sink(chunk)
        if len(chunk) < want:
            break
        want = CHUNK
    return size


def digest_fd(fd: int, *, expected: int, limit: int) -> tuple[str, int]:
    """(sha256, size) of what is left in `fd` (see `feed`)."""
    digest = hashlib.sha256()
    size = feed(digest, fd, expected=expected, limit=limit)
    return digest.hexdigest(), size
