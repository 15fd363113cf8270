"""Typed errors that know which state they report and which exit code they mean.

The CLI never decides an exit code on its own: it asks the error (or the state)
so the state-to-exit table lives in exactly one place.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping


class BundleState(enum.StrEnum):
    CURRENT = "CURRENT"
    DRIFTED = "DRIFTED"
    MISSING = "MISSING"
    SHADOWED = "SHADOWED"
    INVALID_MANIFEST = "INVALID_MANIFEST"
    INVALID_LOCK = "INVALID_LOCK"
    LOCK_MISSING = "LOCK_MISSING"
    LOCK_STALE = "LOCK_STALE"
    INVALID_SOURCE = "INVALID_SOURCE"
    UNMANAGED_TARGET = "UNMANAGED_TARGET"
    CONCURRENT_CHANGE = "CONCURRENT_CHANGE"
    RUNTIME_UNVERIFIED = "RUNTIME_UNVERIFIED"


EXIT_OK = 0
EXIT_ERROR = 1
EXIT_DIFFERENCE = 2
EXIT_REFUSED = 3

STATE_EXIT_CODES: Mapping[BundleState, int] = {
    BundleState.CURRENT: EXIT_OK,
    BundleState.INVALID_MANIFEST: EXIT_ERROR,
    BundleState.INVALID_LOCK: EXIT_ERROR,
    BundleState.INVALID_SOURCE: EXIT_ERROR,
    BundleState.RUNTIME_UNVERIFIED: EXIT_ERROR,
    BundleState.LOCK_MISSING: EXIT_DIFFERENCE,
    BundleState.LOCK_STALE: EXIT_DIFFERENCE,
    BundleState.DRIFTED: EXIT_DIFFERENCE,
    BundleState.MISSING: EXIT_DIFFERENCE,
    BundleState.SHADOWED: EXIT_REFUSED,
    BundleState.UNMANAGED_TARGET: EXIT_REFUSED,
    BundleState.CONCURRENT_CHANGE: EXIT_REFUSED,
}


class CompilerError(Exception):
    """Base class: a message without policy content, optional path pair, a state."""

    state: BundleState | None = None

    def __init__(self, message: str, *, lexical: str | None = None, resolved: str | None = None):
        super().__init__(message)
        self.message = message
        self.lexical = lexical
        self.resolved = resolved

    @property
    def exit_code(self) -> int:
        return EXIT_ERROR if self.state is None else STATE_EXIT_CODES[self.state]

    def paths(self) -> dict[str, str] | None:
        if self.lexical is None:
            return None
        out = {"lexical": self.lexical}
        if self.resolved is not None and self.resolved != self.lexical:
            out["resolved"] = self.resolved
        return out

    def describe(self) -> str:
        """One line for stderr: the path (when known) and the problem."""
        if self.lexical is None:
            return self.message
        return f"{self.lexical}: {self.message}"


class ManifestError(CompilerError):
    state = BundleState.INVALID_MANIFEST


class LockError(CompilerError):
    state = BundleState.INVALID_LOCK


class SourceError(CompilerError):
    state = BundleState.INVALID_SOURCE


class ConcurrentChangeError(CompilerError):
    state = BundleState.CONCURRENT_CHANGE


class ShadowedError(CompilerError):
    """install refuses a target that a non-empty AGENTS.override.md would replace."""

    state = BundleState.SHADOWED


class UnmanagedTargetError(CompilerError):
    """install refuses an unmanaged target, or a target whose digest is not the expected one."""

    state = BundleState.UNMANAGED_TARGET


class CodexVerificationError(CompilerError):
    state = BundleState.RUNTIME_UNVERIFIED


class UsageError(CompilerError):
    """Invalid invocation: exit 1 with state null."""


class TargetError(CompilerError):
    """The target cannot be used safely: a symlink, not a regular file, bad parent, unreadable."""


class ReceiptError(CompilerError):
    """A rollback receipt is missing, outside the state root, or malformed."""


class MutationError(CompilerError):
    """A write failed (recovery has run; its outcome is in the message), or the
    advisory lock could not be acquired (LOCK_UNAVAILABLE)."""


class OutputExistsError(CompilerError):
    """render --output and init refuse every existing path."""
