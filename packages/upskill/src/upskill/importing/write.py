"""Write the registry directory all at once, and only where it is safe to.

The whole tree is built in a temporary sibling directory and renamed into place, so a
failure leaves the old directory (or none) and never half a registry. The target must
be absent, empty, or a previous import: its marker file lists what import wrote, and
a directory holding anything else (the user's own files) is refused, never replaced.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from upskill import fsio
from upskill.errors import UpskillError
from upskill.importing.model import OutFile

MARKER = ".upskill-import.json"


class ImportTargetError(UpskillError):
    """The directory `import` was asked to write cannot be written safely."""


def checked_path(rel: str) -> PurePosixPath:
    """A registry-relative path that stays inside the registry (no `..`, not absolute)."""
    path = PurePosixPath(rel)
    if path.is_absolute() or not path.parts or any(p in ("", ".", "..") for p in path.parts):
        raise ImportTargetError(f"refusing to write {rel!r}: not a path inside the registry")
    return path


def _listing(target: Path) -> set[str]:
    return {
        Path(dirpath, name).relative_to(target).as_posix()
        for dirpath, _, names in os.walk(target)
        for name in names
    }


def check_target(target: Path) -> None:
    """Refuse a target that is a file, a symlink, or a non-empty directory import did not
    write (files other than the ones its marker lists)."""
    if target.is_symlink():
        raise ImportTargetError("is a symlink; give the real directory", path=target)
    if not target.exists():
        return
    if not target.is_dir():
        raise ImportTargetError("exists and is not a directory", path=target)
    present = _listing(target)
    if not present:
        return
    marker = target / MARKER
    if not marker.is_file():
        raise ImportTargetError(
            f"is not empty and is not a previous import (no {MARKER}); "
            "choose another --into or empty it",
            path=target,
        )
    try:
        listed = set(json.loads(marker.read_text("utf-8"))["files"])
    except (OSError, ValueError, KeyError, TypeError):
        raise ImportTargetError(
            f"{MARKER} is unreadable; remove the directory", path=target
        ) from None
    foreign = sorted(present - listed - {MARKER})
    if foreign:
        raise ImportTargetError(
            f"holds {foreign[0]}, which import did not write; move it away or choose another "
            "--into",
            path=target,
        )


def marker_bytes(files: Sequence[OutFile]) -> bytes:
    document = {"schema": 1, "files": sorted(f.path for f in files)}
    return (json.dumps(document, indent=2) + "\n").encode("utf-8")


def write_registry(target: Path, files: Sequence[OutFile]) -> None:
    """Replace `target` with exactly `files` (plus the marker), atomically."""
    check_target(target)
    parent = target.parent
    parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.import-", dir=parent))
    try:
        for out in (*files, OutFile(MARKER, marker_bytes(files))):
            rel = checked_path(out.path)
            path = staging.joinpath(*rel.parts)
            path.parent.mkdir(parents=True, exist_ok=True)
            fsio.write_unsynced(path, out.data, out.mode)
        staging.chmod(0o755)
        fsio.sync_tree(staging)
        old = None
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=parent))
            target.replace(old / "registry")
        try:
            staging.replace(target)
        except OSError:
            if old is not None:
                (old / "registry").replace(target)
            raise
        fsio.fsync_dir(parent)
        if old is not None:
            shutil.rmtree(old)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
