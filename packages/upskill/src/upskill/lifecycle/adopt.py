"""Why an existing client file was not adopted: its diff against upskill's rendering.

`add` takes ownership of a file upskill never wrote when the bytes it would render are
the ones on disk (`plan.py`: unchanged). A file that differs is the user's and is kept
unless `--force`; showing the unified diff lets them see whether it differs only in
upskill's layout (after `upskill import`, usually key order or quoting) and decide.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from pathlib import Path

from upskill import fsio
from upskill.errors import UpskillError
from upskill.lifecycle.plan import Action, Op

MAX_DIFF_BYTES = 256 * 1024
MAX_DIFF_LINES = 60


def _text(data: bytes) -> list[str] | None:
    try:
        return data.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        return None


def foreign_diff(root: Path, action: Action) -> tuple[str, ...]:
    """The unified diff from the file on disk to upskill's rendering; empty when either is
    binary, large, or unreadable (the kept-file line still says what happened)."""
    data = action.data
    if not isinstance(data, bytes) or len(data) > MAX_DIFF_BYTES:
        return ()
    try:
        disk = fsio.read_contained(root / action.path, within=root, limit=MAX_DIFF_BYTES)
    except (OSError, UpskillError):
        return ()
    ours = None if disk is None else _text(disk)
    theirs = _text(data)
    if ours is None or theirs is None:
        return ()
    lines = list(
        difflib.unified_diff(
            ours, theirs, f"{action.path} (yours)", f"{action.path} (upskill)", lineterm=""
        )
    )
    if len(lines) > MAX_DIFF_LINES:
        more = len(lines) - MAX_DIFF_LINES
        lines = [*lines[:MAX_DIFF_LINES], f"… {more} more diff line{'s' if more != 1 else ''}"]
    return tuple(lines)


def foreign_diffs(root: Path, actions: Iterable[Action]) -> Mapping[str, tuple[str, ...]]:
    return {a.path: diff for a in actions if a.op is Op.FOREIGN and (diff := foreign_diff(root, a))}
