"""Lexical path resolution and the state-root layout: the only env/home access."""

from __future__ import annotations

import os
from collections.abc import Mapping

from agents_md_compiler.models import DISTRIBUTION_DIRECTORY, PathPair, sha256_hex

LEGACY_MANIFEST = "global-agents.toml"
DEFAULT_MANIFEST = "agents-md.toml"
OVERRIDE_NAME = "AGENTS.override.md"
TARGET_NAME = "AGENTS.md"


def expand_user(value: str, environ: Mapping[str, str]) -> str:
    """Expand only a leading `~` (from $HOME) or `~user`; `$HOME/x` stays literal."""
    if not value.startswith("~"):
        return value
    head, sep, tail = value.partition("/")
    if head == "~":
        home = environ.get("HOME") or os.path.expanduser("~")
        return home + sep + tail if sep else home
    return os.path.expanduser(value)


def resolve(value: str, base: str, environ: Mapping[str, str]) -> str:
    """Join a relative value to base and normalize; symlinks are never resolved."""
    expanded = expand_user(value, environ)
    if not os.path.isabs(expanded):
        expanded = os.path.join(base, expanded)
    return os.path.normpath(expanded)


def pair(value: str, base: str, environ: Mapping[str, str]) -> PathPair:
    return PathPair(value, resolve(value, base, environ))


def state_root(environ: Mapping[str, str]) -> str:
    xdg = environ.get("XDG_STATE_HOME", "")
    base = xdg if xdg else resolve("~/.local/state", "/", environ)
    return os.path.join(base, DISTRIBUTION_DIRECTORY)


def deployment_dir(root: str, bundle_id: str, resolved_target: str) -> str:
    return os.path.join(root, "_v2", "deployments", bundle_id, sha256_hex(resolved_target.encode()))


def legacy_bundle_dir(root: str, bundle_id: str) -> str:
    return os.path.join(root, bundle_id)


def advisory_lock_path(root: str, resolved: str) -> str:
    """Target locks and lock-file locks share one namespace keyed by path only."""
    return os.path.join(root, "_v2", "locks", sha256_hex(resolved.encode()) + ".lock")


def override_path_for(resolved_target: str) -> str | None:
    if os.path.basename(resolved_target) != TARGET_NAME:
        return None
    return os.path.join(os.path.dirname(resolved_target), OVERRIDE_NAME)


def codex_home(environ: Mapping[str, str]) -> str:
    value = environ.get("CODEX_HOME", "")
    return os.path.normpath(value) if value else resolve("~/.codex", "/", environ)


def is_within(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)
