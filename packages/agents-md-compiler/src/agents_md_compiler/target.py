"""One observation of the target and its override sibling."""

from __future__ import annotations

import enum
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from agents_md_compiler.errors import CompilerIOError, TargetError
from agents_md_compiler.models import sha256_hex
from agents_md_compiler.paths import override_path_for
from agents_md_compiler.rendering import declared_format, is_managed_format


class TargetKind(enum.StrEnum):
    MISSING = "missing"
    FILE = "file"
    SYMLINK = "symlink"
    OTHER = "other"


@dataclass(frozen=True)
class TargetObservation:
    path: str
    kind: TargetKind
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
    def managed(self) -> bool:
        return is_managed_format(self.declared_format)

    def fingerprint(self) -> tuple[object, ...]:
        """What must not change between a precondition and the write."""
        return (self.kind, self.sha256, self.identity)


MAX_TARGET_BYTES = 64 * 1024 * 1024


def observe_target(path: str, limit: int = MAX_TARGET_BYTES) -> TargetObservation:
    """lstat once, then read through the final link for content (check follows links)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return TargetObservation(path, TargetKind.MISSING, None, None, None)
    except OSError as exc:
        raise CompilerIOError(f"cannot inspect target: {exc.strerror}", lexical=path) from None
    if stat.S_ISLNK(info.st_mode):
        kind = TargetKind.SYMLINK
    elif stat.S_ISREG(info.st_mode):
        kind = TargetKind.FILE
    else:
        return TargetObservation(path, TargetKind.OTHER, None, stat.S_IMODE(info.st_mode), None)
    try:
        with Path(path).open("rb") as handle:
            followed = os.fstat(handle.fileno())
            if not stat.S_ISREG(followed.st_mode):
                return TargetObservation(path, TargetKind.OTHER, None, None, None)
            if followed.st_size > limit:
                raise TargetError(f"target is larger than {limit} bytes", lexical=path)
            content = handle.read(limit + 1)
    except FileNotFoundError:
        return TargetObservation(path, kind, None, None, (info.st_dev, info.st_ino))
    except OSError as exc:
        raise CompilerIOError(f"cannot read target: {exc.strerror}", lexical=path) from None
    return TargetObservation(
        path, kind, content, stat.S_IMODE(followed.st_mode), (info.st_dev, info.st_ino)
    )


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
    except OSError:
        return OverrideObservation(path, False)
    return OverrideObservation(path, size > 0)
