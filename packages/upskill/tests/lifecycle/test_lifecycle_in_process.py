"""The in-process `cli` and the real console script agree, call by call.

Most lifecycle tests run `upskill.cli.main` in process with the test's World;
this one runs the same sequence both ways, in two copies of one project, and
compares every exit code, stdout, stderr and the trees left behind.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from upskill_cli import Cli, run_upskill

SEQUENCE = [
    ("new", "rule", "fresh"),  # relative paths: the run's cwd, not the process's
    ("lint", "fresh"),
    ("lint", "--json", "registry"),
    ("fmt", "--check", "registry"),
    ("lint", "missing"),
    ("add", "{registry}", "--claude", "--copilot"),
    ("add", "{registry}", "--claude", "--copilot"),  # a no-op second add
    ("list",),
    ("list", "--json"),
    ("doctor",),
    ("update",),
    ("update", "--dry-run", "--json"),
    ("remove", "style"),
    ("remove", "nothing-such"),  # an error: exit code and one stderr line
    ("frobnicate",),  # a usage error from argparse
    ("clients", "--json"),
    ("remove", "--source", "local:./registry", "--yes", "-q"),
    ("doctor", "--json"),
    ("new", "rule", "late"),  # refused now: a lockfile marks a consumer project
]


def test_in_process_and_console_script_agree(cli: Cli, h, registry: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    roots = {}
    for mode in ("in-process", "black-box"):
        root = tmp_path / mode
        (root / ".git").mkdir(parents=True)
        shutil.copytree(registry, root / "registry")
        roots[mode] = root
    for step in SEQUENCE:
        seen = {}
        for mode, root in roots.items():
            args = [a.format(registry=root / "registry") for a in step]
            env = {**cli.env, "HOME": str(root / "home")}
            ran = run_upskill(args, cwd=root, env=env, black_box=mode == "black-box")
            seen[mode] = (
                ran.returncode,
                ran.stdout.replace(str(root), "<root>"),
                ran.stderr.replace(str(root), "<root>"),
            )
        assert seen["in-process"] == seen["black-box"], step
    trees = {mode: _tree(root) for mode, root in roots.items()}
    assert trees["in-process"] == trees["black-box"]


def _tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes().replace(str(root).encode(), b"<root>")
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.is_relative_to(root / "home" / ".cache")
    }
