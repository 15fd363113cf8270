"""Lexical path resolution and the state-root layout: the only env/home access."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

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
        home = environ.get("HOME") or str(Path("~").expanduser())
        return home + sep + tail if sep else home
    try:
        return str(Path(value).expanduser())
    except RuntimeError:  # unknown user: keep the value literal, like os.path.expanduser
        return value


def resolve(value: str, base: str, environ: Mapping[str, str]) -> str:
    """Join a relative value to base and normalize; symlinks are never resolved."""
    expanded = expand_user(value, environ)
    if not Path(expanded).is_absolute():
        expanded = str(Path(base, expanded))
    return os.path.normpath(expanded)


def pair(value: str, base: str, environ: Mapping[str, str]) -> PathPair:
    return PathPair(value, resolve(value, base, environ))


def state_root(environ: Mapping[str, str], *, windows: bool = os.name == "nt") -> str:
    """`$XDG_STATE_HOME` (when non-empty) or `~/.local/state`; on Windows the local
    application-data folder, `%LOCALAPPDATA%` (its documented default when unset)."""
    if windows:
        local = environ.get("LOCALAPPDATA", "")
        base = local if local else resolve("~/AppData/Local", "/", environ)
    else:
        xdg = environ.get("XDG_STATE_HOME", "")
        base = xdg if xdg else resolve("~/.local/state", "/", environ)
    return str(Path(base, DISTRIBUTION_DIRECTORY))


def deployment_dir(root: str, bundle_id: str, resolved_target: str) -> str:
    return str(Path(root, "_v2", "deployments", bundle_id, sha256_hex(resolved_target.encode())))


def legacy_bundle_dir(root: str, bundle_id: str) -> str:
    return str(Path(root, bundle_id))


def advisory_lock_path(root: str, resolved: str) -> str:
    """Target locks and lock-file locks share one namespace keyed by path only."""
    return str(Path(root, "_v2", "locks", sha256_hex(resolved.encode()) + ".lock"))


def override_path_for(resolved_target: str) -> str | None:
    if Path(resolved_target).name != TARGET_NAME:
        return None
    return str(Path(str(Path(resolved_target).parent), OVERRIDE_NAME))


def codex_home(environ: Mapping[str, str], cwd: str) -> str:
    """$CODEX_HOME (a leading ~ expanded, relative to cwd), else ~/.codex; never realpath'd."""
    return resolve(environ.get("CODEX_HOME", "") or "~/.codex", cwd, environ)


def is_within(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)
