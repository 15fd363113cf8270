"""Hostile repository state for `tests/hostile/`: what a cloned repository can carry.

Each helper plants one thing a repository's author controls (a journal in the project,
a lockfile entry, a symlinked directory) and `Canary` proves afterwards that nothing
outside the places upskill may write changed: the project's `.git/`, a secret beside
the project, and the whole temporary HOME apart from upskill's own cache and state.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

SECRET = b"-----BEGIN OPENSSH PRIVATE KEY-----\nnot really\n"
# No client CLI on PATH: MCP servers go to the clients' config files.
NO_CLIENT_CLIS = {"PATH": "/usr/bin:/bin"}
# A bundle with a rule and one MCP server, installed as `b` from a registry's skills/.
SERVER_BUNDLE = """schema: 1
name: b
description: A rule and a server
items:
  rules: [style]
mcps:
  db:
    local: { command: team-db }
"""
HOOK = b"#!/bin/sh\necho pwned > /tmp/upskill-pwned\n"


def _tree(root: Path, skip: tuple[str, ...] = ()) -> dict[str, tuple[bytes, int]]:
    """Bytes and mode of every entry below `root` (symlinks by their target text)."""
    seen: dict[str, tuple[bytes, int]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        dirnames[:] = [
            d for d in dirnames if os.path.normpath(os.path.join(rel_dir, d)) not in skip
        ]
        for name in dirnames + filenames:
            full = Path(dirpath) / name
            st = full.lstat()
            if full.is_symlink():
                data = os.readlink(full).encode()
            elif full.is_file():
                data = full.read_bytes()
            else:
                data = b""
            seen[str(full.relative_to(root))] = (data, st.st_mode)
    return seen


@dataclass
class Canary:
    """Everything a hostile repository must not be able to touch, snapshotted."""

    project: Path
    home: Path
    outside: Path

    @staticmethod
    def plant(project: Path, home: Path) -> Canary:
        """A `.git` with a HEAD and hooks, `~/.ssh/id_rsa`, and a secret beside the project."""
        git = project / ".git"
        (git / "hooks").mkdir(parents=True, exist_ok=True)
        (git / "HEAD").write_bytes(b"ref: refs/heads/main\n")
        (home / ".ssh").mkdir(parents=True, exist_ok=True)
        (home / ".ssh" / "id_rsa").write_bytes(SECRET)
        outside = project.parent / "outside"
        outside.mkdir(exist_ok=True)
        (outside / "secret.txt").write_bytes(SECRET)
        canary = Canary(project, home, outside)
        canary.before = canary._state()
        return canary

    def _state(self) -> tuple[object, ...]:
        own = (".cache", ".local")  # upskill's own cache and journal state
        return (
            _tree(self.project / ".git"),
            _tree(self.home, skip=own),
            _tree(self.outside),
        )

    def assert_no_secret_in_project(self, *outputs: str) -> None:
        """No byte of a file outside the scope reached a project file or the terminal."""
        marker = SECRET.splitlines()[0]
        for text in outputs:
            assert marker.decode() not in text, "an outside file was quoted"
        for dirpath, dirnames, filenames in os.walk(self.project):
            dirnames[:] = [d for d in dirnames if d != ".git"]
            for name in filenames:
                full = Path(dirpath) / name
                if full.is_file() and not full.is_symlink():
                    assert marker not in full.read_bytes(), f"{full} holds an outside secret"

    def assert_untouched(self) -> None:
        after = self._state()
        names = (".git", "HOME", "outside")
        for name, was, now in zip(names, self.before, after, strict=True):
            assert now == was, f"{name} changed"
        assert not Path("/tmp/upskill-pwned").exists()

    before: tuple[object, ...] = ()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def plant_project_journal(project: Path, ops: list[dict[str, object]], **extra: object) -> None:
    """A journal committed to the repository, as upskill before 0.2 kept it, with staged
    files: `staged` entries name files under `.upskill/txn/` given as `files`."""
    state = project / ".upskill"
    (state / "txn").mkdir(parents=True, exist_ok=True)
    (state / "txn" / "0").write_bytes(HOOK)
    (state / "txn" / "lockfile").write_bytes(b"{}\n")
    record = {"version": 1, "ops": ops, "lockfile": None, **extra}
    (state / "journal.json").write_text(json.dumps(record))


def add_lock_output(project: Path, path: str, data: bytes) -> None:
    """Claim `path` as an output of the first item, with its true digest and size."""
    lock_path = project / ".upskill-lock.json"
    lock = json.loads(lock_path.read_text())
    owner = f"{lock['items'][0]['kind']}:{lock['items'][0]['name']}@claude"
    lock["outputs"].append(
        {"path": path, "sha256": sha256(data), "size": len(data), "owners": [owner]}
    )
    lock["outputs"].sort(key=lambda o: o["path"])
    lock_path.write_text(json.dumps(lock, indent=2) + "\n")
