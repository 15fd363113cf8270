"""Plugins the clients list in files, as bundle `plugins:` entries.

Only opencode records its plugins in a config file upskill also writes: the
`plugin[]` array of `opencode.json`, which the `plugin_uri` form appends to, so each
entry maps back to `{opencode: {plugin_uri: …}}` exactly. The other plugin routes
(Claude Code and Copilot marketplaces, VS Code extensions) are installed through the
client's own CLI and leave nothing in the registry's files to read back.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from upskill import jsonc
from upskill.clientconf.places import Places, client_scope
from upskill.clients import BY_ID
from upskill.clients.base import PluginStyle
from upskill.errors import FormatError
from upskill.importing.names import numbered, slug
from upskill.importing.read import read_text
from upskill.plugins.steps import PLUGIN_KEY, opencode_config


def _entries(path: Path, within: Path | None) -> list[object]:
    text = read_text(path, within)
    if text is None or not text.strip():
        return []
    try:
        data = jsonc.loads(text)
    except jsonc.JsoncError as exc:
        raise FormatError(exc.message, path=path, line=exc.line) from None
    found = data.get(PLUGIN_KEY) if isinstance(data, dict) else None
    return found if isinstance(found, list) else []


def scan_plugins(
    places: Places, clients: Iterable[str], *, home: bool
) -> dict[str, dict[str, Any]]:
    """`plugins:` of the bundle: name -> {client: descriptor}, in file order."""
    out: dict[str, dict[str, Any]] = {}
    for client in clients:
        route = BY_ID[client].plugins
        if route is None or route.style is not PluginStyle.OPENCODE:
            continue
        location = opencode_config(client_scope(home), places)
        path = next((p for p in (location.path, *location.alternatives) if p.is_file()), None)
        if path is None:
            continue
        for entry in _entries(path, location.within):
            if not isinstance(entry, str) or not entry.strip():
                continue
            name = numbered(slug(entry) or "plugin", set(out))
            out[name] = {client: {"plugin_uri": entry}}
    return out
