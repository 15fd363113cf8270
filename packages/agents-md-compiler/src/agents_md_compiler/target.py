"""One observation of the target and its override sibling.

A symlinked target is refused outright (never followed), so a link to a FIFO or
a device cannot make check or install block. The open is non-blocking and
no-follow, and the opened file must be the regular file lstat saw.
"""

from __future__ import annotations

import enum
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from agents_md_compiler.errors import ConcurrentChangeError, TargetError
from agents_md_compiler.models import PathPair, sha256_hex
from agents_md_compiler.paths import override_path_for
from agents_md_compiler.rendering import declared_format, is_managed_format


class TargetKind(enum.StrEnum):
    """How an existing target relates to this compiler (status's target_kind)."""

    MISSING = "MISSING"
    MANAGED = "MANAGED"
    UNMANAGED = "UNMANAGED"


@dataclass(frozen=True)
class TargetObservation:
    path: PathPair
    content: bytes | None
    mode: int | None
    identity: tuple[int, int] | None

    @property
    def sha256(self) -> str | None:
        return None if self.content is None else sha256_hex(self.content)

    @property
    def size_bytes(self) -> int | None:
        return None if self.content is None else len(self.content)

    @property
    def declared_format(self) -> int | None:
        return None if self.content is None else declared_format(self.content)

    @property
    def kind(self) -> TargetKind:
        if self.content is None:
            return TargetKind.MISSING
        return (
            TargetKind.MANAGED if is_managed_format(self.declared_format) else TargetKind.UNMANAGED
        )

    def fingerprint(self) -> tuple[object, ...]:
        """What must not change between a precondition and the write."""
        return (self.sha256, self.identity)


MAX_TARGET_BYTES = 64 * 1024 * 1024
SYMLINK_REFUSED = "target is a symbolic link and will not be followed"
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


def observe_target(path: PathPair, limit: int = MAX_TARGET_BYTES) -> TargetObservation:
    """MISSING, or the bytes of a regular non-symlink file; TargetError for anything else."""
    try:
        info = os.lstat(path.resolved)
    except FileNotFoundError:
        return TargetObservation(path, None, None, None)
    except (OSError, ValueError) as exc:
        raise _error(path, f"target could not be read ({_why(exc)})") from None
    if stat.S_ISLNK(info.st_mode):
        raise _error(path, SYMLINK_REFUSED)
    if not stat.S_ISREG(info.st_mode):
        raise _error(path, "target exists and is not a regular file")
    if info.st_size > limit:
        raise _error(path, f"target is larger than {limit} bytes")
    try:
        fd = os.open(path.resolved, _OPEN_FLAGS)
    except FileNotFoundError:
        return TargetObservation(path, None, None, None)
    except OSError as exc:
        raise _error(path, f"target could not be read ({_why(exc)})") from None
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode) or (opened.st_dev, opened.st_ino) != (
            info.st_dev,
            info.st_ino,
        ):
            raise _error(path, "target was replaced while it was being read")
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
            if sum(map(len, chunks)) > limit:
                raise _error(path, f"target is larger than {limit} bytes")
    except OSError as exc:
        raise _error(path, f"target could not be read ({_why(exc)})") from None
    finally:
        os.close(fd)
    return TargetObservation(
        path, b"".join(chunks), stat.S_IMODE(opened.st_mode), (opened.st_dev, opened.st_ino)
    )


def observe_again(path: PathPair) -> TargetObservation:
    """The re-observation under the advisory lock: a symlink that appeared since the
    precondition was captured is a concurrent change, not a bad target."""
    try:
        return observe_target(path)
    except TargetError as exc:
        if exc.message == SYMLINK_REFUSED:
            raise ConcurrentChangeError(
                "target became a symbolic link", lexical=path.resolved
            ) from None
        raise


def require_parent(path: PathPair) -> None:
    """The directory a target (or a render --output) is written into must exist."""
    try:
        info = Path(path.resolved).parent.stat()
    except FileNotFoundError:
        raise _error(path, "target parent directory does not exist") from None
    except OSError as exc:
        raise _error(path, f"target could not be read ({_why(exc)})") from None
    if not stat.S_ISDIR(info.st_mode):
        raise _error(path, "target parent is not a directory")


def _why(exc: BaseException) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__


def _error(path: PathPair, message: str) -> TargetError:
    return TargetError(message, lexical=path.lexical, resolved=path.resolved)


@dataclass(frozen=True)
class OverrideObservation:
    path: str | None
    present: bool


def observe_override(resolved_target: str) -> OverrideObservation:
    """stat follows links: a symlinked non-empty override still shadows the target."""
    path = override_path_for(resolved_target)
    if path is None:
        return OverrideObservation(None, False)
    try:
        size = Path(path).stat().st_size
    except (OSError, ValueError):
        return OverrideObservation(path, False)
    return OverrideObservation(path, size > 0)
