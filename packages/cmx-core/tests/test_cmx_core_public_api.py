"""The public face: embedders see the names the README documents and nothing else."""

from __future__ import annotations

import pkgutil
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import cmx_core
import cmx_core.conformance

README = Path(__file__).resolve().parents[1] / "README.md"
ROOT = Path(__file__).resolve().parents[3]


def test_every_submodule_except_the_conformance_runner_is_private() -> None:
    public = [m.name for m in pkgutil.iter_modules(cmx_core.__path__) if not m.name.startswith("_")]
    assert public == ["conformance"]
    runner = [
        m.name
        for m in pkgutil.iter_modules(cmx_core.conformance.__path__)
        if not m.name.startswith("_")
    ]
    assert runner == []


def test_all_is_sorted_complete_and_resolvable() -> None:
    assert cmx_core.__all__ == sorted(cmx_core.__all__)
    for name in cmx_core.__all__:
        assert hasattr(cmx_core, name), name
    exported = {
        name
        for name, value in vars(cmx_core).items()
        if not name.startswith("_") and not isinstance(value, ModuleType)
    }
    assert exported == set(cmx_core.__all__) - {"__version__"}


def test_every_name_the_readme_table_documents_is_exported() -> None:
    text = README.read_text(encoding="utf-8")
    table = text.split("## Public API", 1)[1].split("### ", 1)[0]
    documented = set(re.findall(r"^\| `([A-Z][A-Za-z]+)", table, flags=re.MULTILINE))
    assert documented, "README table not found"
    assert documented <= set(cmx_core.__all__)


def test_python_m_conformance_still_runs() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cmx_core.conformance", str(ROOT / "conformance" / "cmx-core")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.rstrip().endswith("0 failed")
