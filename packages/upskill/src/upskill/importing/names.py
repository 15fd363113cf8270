"""Portable names for what the clients called their items, and deterministic renames."""

from __future__ import annotations

import re

from upskill.format.names import MAX_NAME_LENGTH, name_problem


def slug(text: str) -> str:
    """Lowercase letters, digits and single hyphens, at most 64 characters ('' when none)."""
    cut = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return cut[:MAX_NAME_LENGTH].rstrip("-")


def portable_name(name: str, fallback: str, *, skill: bool) -> str:
    """`name` when the portable format accepts it, else its slug (`fallback` when empty)."""
    if name_problem(name, skill=skill) is None:
        return name
    return slug(name) or fallback


def numbered(name: str, taken: set[str]) -> str:
    """The first of `name`, `name-2`, `name-3`, … not in `taken` (cut to stay valid)."""
    if name not in taken:
        return name
    number = 2
    while True:
        suffix = f"-{number}"
        candidate = name[: MAX_NAME_LENGTH - len(suffix)].rstrip("-") + suffix
        if candidate not in taken:
            return candidate
        number += 1
