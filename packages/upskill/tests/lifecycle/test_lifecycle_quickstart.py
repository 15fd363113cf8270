"""The README Quick start's first line, run exactly, offline, in a fresh copy of the repo."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[4]


def _quick_start_line() -> str:
    """Line 1 of the README's Quick start block: read, never restated, so they cannot drift."""
    text = (REPO / "README.md").read_text()
    block = text.split("\n## Quick start\n", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    return block.splitlines()[0]


SKIP = {
    ".git",
    ".venv",
    ".cache",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".hypothesis",
    "demo",
    "node_modules",
}


def test_quick_start_line_installs_into_demo() -> None:
    assert "upskill add ../examples/registry" in _quick_start_line()


def test_quick_start_offline(tmp_path):
    uv = shutil.which("uv")
    assert uv is not None, "uv must be on PATH (CI installs it)"
    cache = subprocess.run([uv, "cache", "dir"], capture_output=True, text=True, check=True)
    copy = tmp_path / "ctxkit"
    shutil.copytree(REPO, copy, ignore=lambda _d, names: [n for n in names if n in SKIP])
    home = tmp_path / "home"
    home.mkdir()
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "UV_CACHE_DIR": cache.stdout.strip(),
        "UV_OFFLINE": "1",
        "UV_PYTHON_DOWNLOADS": "never",
        "NO_COLOR": "1",
    }
    out = subprocess.run(
        ["bash", "-c", _quick_start_line()],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    demo = copy / "demo"
    lock = json.loads((demo / ".upskill-lock.json").read_text())
    assert lock["schema"] == 1 and lock["items"]
    assert all(i["source"] == f"local:{copy / 'examples' / 'registry'}" for i in lock["items"])
    summary = out.stderr.strip().splitlines()[-1]
    assert summary == f"{len(lock['items'])} items installed for claude, copilot, vscode, opencode"
    skills = [i["name"] for i in lock["items"] if i["kind"] == "skill"]
    for name in skills:
        assert (demo / ".claude" / "skills" / name / "SKILL.md").is_file()
        assert (demo / ".github" / "skills" / name / "SKILL.md").is_file()
        assert (demo / ".agents" / "skills" / name / "SKILL.md").is_file()
    # the demo has no AGENTS.md, so no CLAUDE.md importing it (issue 14, 11)
    assert not (demo / "CLAUDE.md").exists()
