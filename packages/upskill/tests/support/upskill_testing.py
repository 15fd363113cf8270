"""Helpers shared by upskill's test modules (on pytest's `pythonpath`, see pyproject.toml)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path


def write_tree(root: Path, files: Mapping[str, str | bytes]) -> Path:
    """Write each relative path's text or bytes below `root` (parents made); returns `root`."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
    return root


# A fixed identity and no system or global git configuration: tests see the same git
# whatever the machine's ~/.gitconfig says.
GIT_ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
}


def git(cwd: Path, *args: str) -> str:
    """Run git in `cwd` with the test identity (inherited GIT_* variables dropped); its
    stdout, stripped."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_ENV)
    out = subprocess.run(
        ["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True
    )
    return out.stdout.strip()


def init_published(bare: Path, work: Path) -> None:
    """An empty bare repository (branch main) and a working repository to publish to it:
    a git source the tests serve over file://."""
    bare.parent.mkdir(parents=True, exist_ok=True)
    git(bare.parent, "init", "-q", "--bare", "-b", "main", str(bare))
    work.mkdir(parents=True)
    git(work, "init", "-q", "-b", "main")
