"""What another uid executes in a test: a world-readable copy of the package and launchers
naming an interpreter every uid can run, in a temp directory of the test's own.

The checkout may sit in a private directory (a 0700 `mktemp -d`, a home directory), and
the venv's interpreter may live under /root; neither is reachable by the uids the tests
switch to. Tests therefore never hand another uid a path inside the checkout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import cortexfs

LAUNCHER = """#!{python} -I
import sys
sys.path.insert(0, {lib!r})
from cortexfs.{module} import main
sys.exit(main())
"""
SCRIPTS = (("ctx", "ctx_cli"), ("cortexfs-object-runner", "runner_cli"))


def reachable_by_all(path: str) -> bool:
    """Every directory above `path` is searchable and `path` itself readable by others."""
    current = "/"
    for part in [p for p in os.path.dirname(path).split("/") if p]:
        current = os.path.join(current, part)
        if not os.stat(current).st_mode & 0o001:
            return False
    return bool(os.stat(path).st_mode & 0o005)


def world_python() -> str | None:
    """An interpreter (3.11+) every uid can run: this one if reachable, else python3."""
    candidates = [os.path.realpath(sys.executable), shutil.which("python3", path="/usr/bin:/bin")]
    for candidate in candidates:
        if not candidate or not reachable_by_all(candidate):
            continue
        probe = subprocess.run(
            [candidate, "-c", "import sys; print(sys.version_info >= (3, 11))"],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if probe.stdout.strip() == "True":
            return candidate
    return None


@dataclass(frozen=True)
class Runtime:
    base: Path
    python: str

    @property
    def ctx(self) -> str:
        return str(self.base / "bin" / "ctx")

    @property
    def runner(self) -> str:
        return str(self.base / "bin" / "cortexfs-object-runner")


def build_runtime(base: Path, python: str) -> Runtime:
    """Copy the cortexfs package under `base` (which must not exist yet) with `ctx` and
    `cortexfs-object-runner` launchers; everything world-readable, launchers executable."""
    lib = base / "lib"
    shutil.copytree(
        Path(cortexfs.__file__).parent, lib / "cortexfs",
        ignore=shutil.ignore_patterns("__pycache__"),
    )  # fmt: skip
    (base / "bin").mkdir()
    for name, module in SCRIPTS:
        script = base / "bin" / name
        script.write_text(LAUNCHER.format(python=python, lib=str(lib), module=module))
    for path in [base, *base.rglob("*")]:
        path.chmod(0o755 if path.is_dir() or path.parent.name == "bin" else 0o644)
    return Runtime(base, python)
