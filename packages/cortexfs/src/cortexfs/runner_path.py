"""Where the object runner lives: the shebang every executable object names."""

from __future__ import annotations

import os
import shutil
import sys

from cortexfs.objects import RUNNER_NAME


def default_runner() -> str:
    """The runner next to this interpreter (a venv's bin/), else the one on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), RUNNER_NAME)
    if os.access(beside, os.X_OK):
        return beside
    found = shutil.which(RUNNER_NAME)
    return os.path.abspath(found) if found else f"/usr/bin/{RUNNER_NAME}"
