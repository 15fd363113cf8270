"""Effective-name rules (format spec §2.1; Agent Skills for skills).

Names become path components in every client tree, so a name with `/`, `..`
or uppercase letters is rejected before anything is rendered.
"""

from __future__ import annotations

import re
from pathlib import Path

from upskill.errors import FormatError

MAX_NAME_LENGTH = 64
_NAME = re.compile(r"[a-z0-9]+(?:-+[a-z0-9]+)*")


def name_problem(name: str, *, skill: bool = False) -> str | None:
    """Why `name` is not a valid effective name, or None when it is."""
    if not name:
        return "name must not be empty"
    if len(name) > MAX_NAME_LENGTH:
        return f"name {name!r} is longer than {MAX_NAME_LENGTH} characters"
    if "/" in name or "\\" in name or ".." in name:
        return f"name {name!r} must not contain '/', '\\' or '..'"
    if name != name.lower():
        return f"name {name!r} must be lowercase"
    if name.startswith("-") or name.endswith("-"):
        return f"name {name!r} must not start or end with a hyphen"
    if not _NAME.fullmatch(name):
        return f"name {name!r} may contain only lowercase letters, digits and hyphens"
    if skill and "--" in name:
        return f"skill name {name!r} must not contain '--' (Agent Skills)"
    return None


def check_name(name: str, path: Path, line: int | None = None, *, skill: bool = False) -> str:
    problem = name_problem(name, skill=skill)
    if problem is not None:
        raise FormatError(problem, path=path, line=line)
    return name
