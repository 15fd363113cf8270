"""The instruction files a team's project settings make a client read besides its own.

Gemini CLI reads `GEMINI.md`, and also every file named in `context.fileName` of the
project's `.gemini/settings.json` (a string or a list of names): teams that keep
their instructions in `AGENTS.md` list it there. When upskill compiles a rule into
`AGENTS.md` for another client, such a Gemini already reads it there, so its own copy
would be a second read (`lifecycle.desired.served_by_reads`). Only the project's file
counts: it is shared with the team, so every teammate's install plans the same files,
whatever their own `~/.gemini/settings.json` says. The setting is read, never written.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable

from upskill import jsonc
from upskill.clients import CLIENTS

Read = Callable[[str], bytes | None]


def configured_reads(read: Read) -> dict[str, frozenset[str]]:
    """Client id -> the instruction files its project setting names (`read`: a
    project-relative file's bytes, None when absent). A file that is not JSON, or a
    value that is not a string or a list of strings, names nothing: the client then
    reads what it reads by default, and so does upskill's plan."""
    out: dict[str, frozenset[str]] = {}
    for client in CLIENTS:
        where = client.context_files
        if where is None:
            continue
        names = _names(read(where.settings), where.key)
        if names:
            out[client.id] = names
    return out


def _names(data: bytes | None, key: tuple[str, ...]) -> frozenset[str]:
    if data is None:
        return frozenset()
    try:
        value: object = jsonc.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, jsonc.JsoncError):
        return frozenset()
    for part in key:
        value = value.get(part) if isinstance(value, dict) else None
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return frozenset()
    return frozenset(posixpath.normpath(v.strip()) for v in value if v.strip())
