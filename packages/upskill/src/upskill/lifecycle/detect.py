"""Which clients a scope shows signs of: their directory or config file, or their CLI.

With sixteen clients, "every client" would fill each repository with folders for
tools nobody there uses (the top complaint against the `skills` CLI), so `add`
installs for what is configured, else for what is detected here, else for the
baseline clients. Only `lstat` and a PATH lookup: nothing is read or followed.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from upskill.clients import CLIENTS


@dataclass(frozen=True)
class Detection:
    client: str
    reason: str  # the path found (scope-relative, `~/` for home) or `<exe> on PATH`


def _present(path: Path) -> bool:
    try:
        os.lstat(path)
    except OSError:
        return False
    return True


def detect(
    root: Path, home: Path, env: Mapping[str, str], *, global_: bool
) -> tuple[Detection, ...]:
    """The clients found for a scope, in registry order, each with the first sign seen."""
    search = env.get("PATH", "")
    found: list[Detection] = []
    for client in CLIENTS:
        marks = (
            [(home / p, f"~/{p}") for p in client.detect.home_paths]
            if global_
            else [(root / p, p) for p in client.detect.paths]
        )
        reason = next((shown for path, shown in marks if _present(path)), None)
        if reason is None:
            exe = next((e for e in client.detect.executables if shutil.which(e, path=search)), None)
            reason = f"{exe} on PATH" if exe is not None else None
        if reason is not None:
            found.append(Detection(client.id, reason))
    return tuple(found)
