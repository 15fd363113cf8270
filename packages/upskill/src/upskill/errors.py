"""Typed errors for upskill.

Every failure a user can cause surfaces as one line naming the file (and the
line when known) so that an editor can jump to it; the exit code travels with
the error so that only the CLI layer decides how to report it.
"""

from __future__ import annotations

from pathlib import Path

from upskill import exitcodes


class UpskillError(Exception):
    """Base class: a user-facing failure with an exit code and a location.

    `warnings` are lines the failure refers to (what was skipped on the way to it),
    said as warnings before the error line: the code that raises never prints."""

    exit_code: int = exitcodes.ERROR
    warnings: tuple[str, ...] = ()

    def __init__(
        self,
        message: str,
        *,
        path: Path | str | None = None,
        line: int | None = None,
        exit_code: int | None = None,
        warnings: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.warnings = warnings
        self.path: Path | None = Path(path) if path is not None else None
        self.line = line
        if exit_code is not None:
            self.exit_code = exit_code

    @property
    def where(self) -> str | None:
        """`path` or `path:line`, as messages name the place; None without a path."""
        if self.path is None:
            return None
        return str(self.path) if self.line is None else f"{self.path}:{self.line}"

    def __str__(self) -> str:
        return self.message if self.where is None else f"{self.where}: {self.message}"

    def shown_from(self, base: Path) -> str:
        """`str(self)` with the path relative to `base` when it is inside it: an author
        command reports files as named from the run's working directory."""
        if self.path is None or not self.path.is_relative_to(base):
            return str(self)
        where = self.path.relative_to(base).as_posix()
        where = where if self.line is None else f"{where}:{self.line}"
        return f"{where}: {self.message}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, UpskillError):
            return NotImplemented
        return (type(self), str(self), self.exit_code) == (type(other), str(other), other.exit_code)

    def __hash__(self) -> int:
        return hash((type(self), str(self)))


class UsageError(UpskillError):
    """The command line itself is wrong (exit 2)."""

    exit_code = exitcodes.USAGE


class FormatError(UpskillError):
    """An SSOT file (item entrypoint, override or bundle) violates the portable format."""


class RenderError(UpskillError):
    """An item cannot be rendered for a client (e.g. a resource that cannot be copied)."""
