"""Install intent journal: evidence of an install interrupted between replace and receipt.

Written (under the advisory lock) after the backup and before the target is
replaced; removed once the receipt is written or recovery has verified the old
bytes. A journal that survives therefore means a process died mid-install: the
next install moves it to preserved/ and says so, and status reports it.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from agents_md_compiler.atomic import atomic_write
from agents_md_compiler.lockfile import canonical_json
from agents_md_compiler.receipts import DeploymentDirs


def begin(dirs: DeploymentDirs, document: dict[str, object]) -> None:
    atomic_write(dirs.journal, canonical_json(document))


def finish(dirs: DeploymentDirs) -> None:
    with contextlib.suppress(FileNotFoundError):
        Path(dirs.journal).unlink()


def pending(dirs: DeploymentDirs) -> str | None:
    return dirs.journal if Path(dirs.journal).is_file() else None


def pending_rollback(dirs: DeploymentDirs) -> str | None:
    """A rollback killed before its receipt (the next rollback --apply completes it)."""
    return dirs.rollback_journal if Path(dirs.rollback_journal).is_file() else None


def set_aside(dirs: DeploymentDirs, when: str) -> str | None:
    """Keep a leftover journal as evidence before a new install starts its own."""
    if pending(dirs) is None:
        return None
    kept = str(Path(dirs.preserved, f"{when}-interrupted.journal.json"))
    Path(dirs.journal).replace(kept)
    return kept
