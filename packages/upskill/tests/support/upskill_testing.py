"""Helpers shared by upskill's test modules (on pytest's `pythonpath`, see pyproject.toml)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from upskill.lifecycle.resolve import Resolved


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


def resolved_rules(root: Path, source: Mapping[str, str]) -> tuple[Resolved, ...]:
    """Write each named rule's text (`{n}` replaced by its name) as a local source under
    `root` and load it: the items a planner property feeds `render_desired`."""
    from upskill.lifecycle.catalog import load_catalog
    from upskill.lifecycle.resolve import Resolved
    from upskill.sources.local import local_fetched
    from upskill.sources.spec import parse_label

    write_tree(root, {f"skills/{n}/RULE.md": text.replace("{n}", n) for n, text in source.items()})
    catalog = load_catalog(local_fetched(parse_label(f"local:{root}")))
    return tuple(
        Resolved(item, kind, name, name, catalog)
        for (kind, name), item in sorted(catalog.items.items())
    )


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
