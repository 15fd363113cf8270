"""Client-side control updates: temp file in the same directory, fsync, rename."""

from __future__ import annotations

import contextlib
import errno
import os

from cortexfs.errors import BadInput, CtxError, Denied, Failed, Internal, Unavailable

_BY_EXIT = {2: BadInput, 13: Denied, 1: Failed, 69: Unavailable}


def os_error(path: str, exc: OSError) -> CtxError:
    """One line naming the path and the errno; the class carries the exit code."""
    from cortexfs.errors import exit_code_for_errno

    code = exit_code_for_errno(exc.errno or errno.EIO)
    name = errno.errorcode.get(exc.errno or errno.EIO, "EIO")
    return _BY_EXIT.get(code, Internal)(f"{path}: {name} ({os.strerror(exc.errno or errno.EIO)})")


def write_control(path: str, data: bytes, attempt: int = 0) -> None:
    directory, base = os.path.split(path)
    temp = os.path.join(directory, f".{base}.tmp-{os.getpid()}-{os.urandom(4).hex()}-{attempt}")
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise os_error(path, exc) from exc
    try:
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.rename(temp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise os_error(path, exc) from exc
