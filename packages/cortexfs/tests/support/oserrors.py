"""What a filesystem call through the mount answered, as an errno (0: it succeeded).

Tests compare refusals by errno (EACCES, EROFS, EINVAL ...), which an OSError
carries; one helper keeps every test file asking the same way."""

from __future__ import annotations

from collections.abc import Callable


def err(action: Callable[[], object]) -> int:
    try:
        action()
    except OSError as exc:
        return exc.errno or -1
    return 0
