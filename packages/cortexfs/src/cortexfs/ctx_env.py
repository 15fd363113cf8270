"""The CTX_* environment: where the tree is, whose home, which tool directories, which agent."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

DEFAULT_ROOT = "/ctx"


@dataclass(frozen=True)
class CtxEnv:
    root: str
    home: str
    path: tuple[str, ...]
    agent: str | None
    uid: int

    def render(self) -> list[str]:
        """KEY=VALUE lines a shell can eval (ctx env)."""
        lines = [
            f"CTX_ROOT={self.root}",
            f"CTX_HOME={self.home}",
            f"CTX_PATH={':'.join(self.path)}",
        ]
        if self.agent:
            lines.append(f"CTX_AGENT={self.agent}")
        return lines


def _tshrc_path(home: str) -> str | None:
    """`home/<uid>/.tshrc` may hold one CTX_PATH= line; it is read, never executed."""
    try:
        with open(os.path.join(home, ".tshrc"), "rb") as handle:
            text = handle.read(4096).decode("utf-8", "replace")
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("CTX_PATH="):
            return line.removeprefix("CTX_PATH=")
    return None


def _rebase(value: str, root: str) -> str:
    """.tshrc names canonical /ctx paths; map them onto a tree mounted elsewhere."""
    if root != DEFAULT_ROOT and (value == DEFAULT_ROOT or value.startswith(DEFAULT_ROOT + "/")):
        return root + value[len(DEFAULT_ROOT) :]
    return value


def ctx_env(environ: Mapping[str, str], uid: int) -> CtxEnv:
    root = environ.get("CTX_ROOT") or DEFAULT_ROOT
    home = environ.get("CTX_HOME") or f"{root}/home/{uid}"
    raw_path = environ.get("CTX_PATH") or _tshrc_path(home) or f"{root}/tool:{home}/tool"
    path = tuple(_rebase(p, root) for p in raw_path.split(":") if p)
    return CtxEnv(root, home, path, environ.get("CTX_AGENT") or None, uid)
