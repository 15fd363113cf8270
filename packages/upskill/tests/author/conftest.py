"""Fixtures for the author-command tests (`new`, `lint`, `fmt`).

Every command runs in process (`upskill_cli.run_upskill`; the console script
for a test marked `black_box`) in a temp directory with a temp HOME and XDG
dirs, so nothing leaks from the machine.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from upskill_cli import black_boxed, run_upskill

REPO_ROOT = Path(__file__).resolve().parents[4]
EXAMPLE_REGISTRY = REPO_ROOT / "examples" / "registry"
GOLDEN_FMT = Path(__file__).resolve().parent / "golden" / "fmt"


@dataclass(frozen=True)
class Result:
    returncode: int
    stdout: str
    stderr: str


Runner = Callable[..., Result]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def work(tmp_path: Path) -> Path:
    path = tmp_path / "work"
    path.mkdir()
    return path


@pytest.fixture
def upskill(home: Path, work: Path, request: pytest.FixtureRequest) -> Runner:
    """Run `upskill <args>` in `cwd` (default: the `work` dir); never reads stdin."""
    black_box = black_boxed(request)

    def run(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> Result:
        overrides = env or {}
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("XDG_", "UPSKILL_", "NO_COLOR"))
        }
        env.update(
            HOME=str(home),
            XDG_CONFIG_HOME=str(home / ".config"),
            XDG_CACHE_HOME=str(home / ".cache"),
            XDG_DATA_HOME=str(home / ".local" / "share"),
            PYTHONDONTWRITEBYTECODE="1",
        )
        env.update(overrides)
        completed = run_upskill(args, cwd=cwd or work, env=env, black_box=black_box)
        return Result(completed.returncode, completed.stdout, completed.stderr)

    return run


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_bytes(text.encode("utf-8"))
    return path


@pytest.fixture
def writer() -> Callable[[Path, str | bytes], Path]:
    return write


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under root with its bytes and mtime_ns, for "nothing written" checks."""
    return {
        p.relative_to(root).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def golden_fmt() -> Path:
    return GOLDEN_FMT


@pytest.fixture
def example_registry() -> Path:
    return EXAMPLE_REGISTRY


@pytest.fixture
def snap() -> Callable[[Path], dict[str, tuple[bytes, int]]]:
    return snapshot
