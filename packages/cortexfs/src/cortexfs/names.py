"""The object name grammar (object-abi): one pure check shared by the FS, ctx and the runner."""

from __future__ import annotations

import re

_NAME = re.compile(r"[a-zA-Z0-9][a-zA-Z0-9._+-]{0,63}")
_BANNED_SUFFIXES = (".sock", ".d")


def name_problem(name: str) -> str | None:
    """Why `name` is not a valid object name, or None when it is."""
    if not _NAME.fullmatch(name):
        return "must match [a-zA-Z0-9][a-zA-Z0-9._+-]{0,63}"
    if name.endswith(_BANNED_SUFFIXES):
        return "must not end with .sock or .d"
    if ".." in name:
        return "must not contain '..'"
    return None


def is_valid_name(name: str) -> bool:
    return name_problem(name) is None
