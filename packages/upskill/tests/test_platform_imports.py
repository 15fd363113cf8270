"""No upskill module needs a POSIX-only module to be imported (issue 19, item 12).

A module that imports `fcntl` at top level makes upskill fail before it starts on
Windows. This imports every upskill module in a child interpreter where
`fcntl`, `termios`, `pwd`, `grp` and `resource` are absent, `msvcrt` is present and
`sys.platform` says win32. The standard library's own platform switches
(`subprocess` and friends) are taken first, as they would be there: only upskill's
imports are under test. The lock's Windows branch is tested in `test_filelock.py`.
"""

from __future__ import annotations

import subprocess
import sys

CHILD = """
import ctypes, importlib, pkgutil, shutil, sqlite3, subprocess, sys, tempfile, types
for name in ("fcntl", "termios", "pwd", "grp", "resource"):
    sys.modules[name] = None
sys.modules["msvcrt"] = types.ModuleType("msvcrt")
sys.platform = "win32"
import upskill
failed = []
for info in pkgutil.walk_packages(upskill.__path__, "upskill."):
    if info.name.endswith(".__main__"):
        continue  # runs the CLI
    try:
        importlib.import_module(info.name)
    except Exception as exc:
        failed.append(f"{info.name}: {type(exc).__name__}: {exc}")
print("\\n".join(failed) or "every module imported")
"""


def test_every_upskill_module_imports_without_posix_only_modules() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "every module imported\n"
