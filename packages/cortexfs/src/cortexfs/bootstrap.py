"""Create the reference tree in an empty storage directory, or repair it in an existing
CortexFS tree; refuse anything else."""

from __future__ import annotations

import os

from cortexfs.errors import BadInput
from cortexfs.json_bounds import loads_bounded
from cortexfs.layout import Kind, classify
from cortexfs.storage import Backing
from cortexfs.templates import TREE_VERSION, reference_tree

STATE_FILE = "bin/cortexfs.bootstrap.json"


def tree_version(storage: str) -> int | None:
    try:
        with open(os.path.join(storage, STATE_FILE), "rb") as handle:
            state = loads_bounded(handle.read(65536).decode("utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise BadInput(f"{storage}/{STATE_FILE}: unreadable bootstrap state: {exc}") from exc
    version = state.get("tree_version") if isinstance(state, dict) else None
    if type(version) is not int:
        raise BadInput(f"{storage}/{STATE_FILE}: tree_version is not an integer")
    return version


def repair(storage: str, runner: str) -> list[str]:
    """Restore reference entries missing from an existing tree (never overwriting one
    that exists) and the modes of the shared ones, which are presented as stored.
    Returns the storage-relative paths it restored or re-moded, in tree order."""
    backing = Backing(storage)
    fixed = []
    for entry in reference_tree(runner):
        if classify(f"/{entry.path}").kind is Kind.HOME_FILE:
            continue  # root's .tshrc is root's to remove
        real = os.path.join(backing.root, entry.path)
        if not os.path.lexists(real):
            backing.write_entries([entry])
            fixed.append(entry.path)
            continue
        shared = entry.path.startswith("shared/") and entry.link is None
        if shared and os.stat(real).st_mode & 0o7777 != entry.mode:
            os.chmod(real, entry.mode)
            fixed.append(entry.path)
    return fixed


def bootstrap(storage: str, runner: str) -> bool:
    """Ensure the existing directory `storage` holds a CortexFS tree; True when it was
    created now."""
    version = tree_version(storage)
    if version is not None:
        if version > TREE_VERSION:
            raise BadInput(f"{storage}: tree_version {version} is newer than {TREE_VERSION}")
        return False
    if os.listdir(storage):
        raise BadInput(f"{storage}: not empty and not a CortexFS tree (no {STATE_FILE})")
    # The backing store must never be reachable writable around FUSE: root only.
    os.chmod(storage, 0o700)
    Backing(storage).write_entries(reference_tree(runner))
    return True
