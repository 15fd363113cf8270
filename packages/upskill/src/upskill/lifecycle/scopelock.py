"""One writer per scope: an advisory lock (`upskill.filelock`) on `<root>/.upskill/.lock`.

A second `upskill` in the same scope waits (up to `UPSKILL_LOCK_TIMEOUT`
seconds, default 30) and then fails cleanly; it re-reads the lockfile once it
holds the lock, so concurrent runs serialise instead of clobbering each other.
"""

from __future__ import annotations

import errno
from collections.abc import Mapping
from pathlib import Path

from upskill.errors import UpskillError
from upskill.filelock import FileLock, LockTimeout
from upskill.fsio import atomic_write
from upskill.lifecycle.fsops import UnsafePath, real_dir

LOCK_TIMEOUT_ENV = "UPSKILL_LOCK_TIMEOUT"
STATE_GITIGNORE = (
    b"# upskill run-time state (lock, journal, staging)\n/.lock\n/journal.json\n/txn/\n"
)


class ScopeBusy(UpskillError):
    """Another upskill process holds the scope lock."""


def _timeout_from_env(env: Mapping[str, str]) -> float:
    try:
        return float(env.get(LOCK_TIMEOUT_ENV, "30"))
    except ValueError:
        return 30.0


class ScopeLock(FileLock):
    """The scope's `FileLock`: waits a bounded time, then fails with `ScopeBusy`.

    `env`: the run's environment (`World.env`), where `UPSKILL_LOCK_TIMEOUT` is read;
    an explicit `timeout` wins over it."""

    def __init__(
        self, path: Path, env: Mapping[str, str] | None = None, timeout: float | None = None
    ) -> None:
        if timeout is None:
            timeout = _timeout_from_env(env or {})
        super().__init__(path, timeout=timeout)

    def __enter__(self) -> ScopeLock:
        if not real_dir(self.path.parent):  # a symlinked `.upskill/` is refused, never followed
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            super().__enter__()
        except OSError as exc:
            if exc.errno != errno.ELOOP:
                raise
            raise UnsafePath("refusing a lock file that is a symlink", path=self.path) from None
        except LockTimeout:
            raise ScopeBusy(
                "another upskill process is writing this scope; try again when it finishes",
                path=self.path,
            ) from None
        ignore = self.path.parent / ".gitignore"
        if not ignore.exists():  # config.yaml is committed; the run-time state is not
            atomic_write(ignore, STATE_GITIGNORE)
        return self
