"""What a run does to a file upskill keeps besides its plan outputs.

`CLAUDE.md`, `opencode.json`, `.vscode/settings.json` and, at user level, Codex's
`~/.codex/config.toml` are shared with the team or the user and edited, not owned
(`lifecycle.ancillary`, `lifecycle.edits`), so they are no plan actions. A run still
changes them, and the user must see that as they see an output written: one
`ExtraFile` per file says what is written or removed and what upskill set and took
back there, or that an edited file it no longer needs is kept. The outcome's
transaction is built from these same records (`engine.Outcome`), so what the CLI
reports is what is written, never a second account.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class ExtraOp(enum.Enum):
    CREATE = "create"
    UPDATE = "update"
    REMOVE = "remove"
    # A file upskill created and no longer needs, edited since and so left as it is.
    KEEP = "keep-edited-orphan"


@dataclass(frozen=True)
class Entry:
    """One thing upskill keeps in a file: `member` of the JSON object `key` mapped to
    `value`, or (`member` None) `value` an item of the array `key` (in a TOML file, a
    table of the array of tables `key`, as a dict)."""

    key: str
    member: str | None
    value: object


@dataclass(frozen=True)
class ExtraFile:
    """A change to one extra file: `data` written (create, update), or the file removed
    while it still holds `expected` (its sha256); `added` and `taken` are the entries
    upskill set and took back (none for a file written whole, `CLAUDE.md`)."""

    path: str
    op: ExtraOp
    data: bytes | None = None
    expected: str = ""
    added: tuple[Entry, ...] = ()
    taken: tuple[Entry, ...] = ()
