"""The CPU model and core count every bench result names, so a figure says where it
was measured (a ratio counts once it reproduces on another machine)."""

from __future__ import annotations

import os
from pathlib import Path


def cpu() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores"
