"""Typed errors: each carries the errno (filesystem layer) or exit code (commands) it maps to."""

from __future__ import annotations

import errno as _errno

# Exit codes of the exec contract (object-abi) shared by `ctx` and the object runner.
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_DENIED = 13
EXIT_UNAVAILABLE = 69
EXIT_INTERNAL = 70


class FsRefusal(OSError):
    """A filesystem operation refused by CortexFS rules. An OSError, so the FUSE binding
    answers -errno for it exactly as for a failing backing call."""

    def __init__(self, err: int, reason: str) -> None:
        super().__init__(err, f"{_errno.errorcode.get(err, str(err))}: {reason}")
        self.reason = reason


class CtxError(Exception):
    """A command-level failure: one message line and the exit code the CLI returns."""

    exit_code = EXIT_INTERNAL
    errno_name = "EIO"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadInput(CtxError):
    exit_code = EXIT_BAD_INPUT
    errno_name = "EINVAL"


class Denied(CtxError):
    exit_code = EXIT_DENIED
    errno_name = "EACCES"


class Unavailable(CtxError):
    exit_code = EXIT_UNAVAILABLE
    errno_name = "ENOENT"


class ConnectionLost(Unavailable):
    """The other end (an MCP server, an agent) went away mid-exchange: it crashed or
    exited. Unavailable as far as the exit code goes, but not "no such thing"."""

    errno_name = "ECONNRESET"


class Internal(CtxError):
    exit_code = EXIT_INTERNAL
    errno_name = "EIO"


class Exists(CtxError):
    exit_code = EXIT_FAILED
    errno_name = "EEXIST"


class Failed(CtxError):
    exit_code = EXIT_FAILED
    errno_name = "EIO"


class TimedOut(CtxError):
    """A call ran past its driver's `timeout=`; its server was stopped."""

    exit_code = EXIT_UNAVAILABLE
    errno_name = "ETIMEDOUT"


class Cancelled(CtxError):
    """The caller was interrupted (SIGTERM/SIGINT) or hung up mid-call."""

    exit_code = EXIT_FAILED
    errno_name = "ECANCELED"


def exit_code_for_errno(err: int) -> int:
    """Map an errno seen by a client of the mount to the ctx exit code convention."""
    if err in (_errno.EACCES, _errno.EPERM, _errno.EROFS):
        return EXIT_DENIED
    if err in (_errno.EINVAL, _errno.EILSEQ, _errno.EMSGSIZE, _errno.ENAMETOOLONG):
        return EXIT_BAD_INPUT
    missing_or_busy = (_errno.ENOENT, _errno.ENOTDIR, _errno.EISDIR, _errno.ENOTEMPTY, _errno.EBUSY)
    if err in (*missing_or_busy, _errno.EEXIST):
        return EXIT_FAILED
    if err in (_errno.ENOTCONN, _errno.EIO, _errno.ENODEV):
        return EXIT_UNAVAILABLE
    return EXIT_INTERNAL
