"""bench/cortexfs.py's closing line: a part skipped with `--skip` reports no verdict."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[3] / "bench" / "cortexfs.py"


def _bench() -> ModuleType:
    # Loaded under another name: the script is called cortexfs.py, like the package.
    spec = importlib.util.spec_from_file_location("cortexfs_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_skipped_part_has_no_verdict() -> None:
    line = _bench().goals_line({"file operations": None, "warm calls": True})
    assert line == "goals: file operations skipped (no verdict), warm calls met"


def test_parts_that_ran_say_met_or_not() -> None:
    line = _bench().goals_line({"file operations": False, "warm calls": True})
    assert line == "goals: file operations NOT met, warm calls met"
