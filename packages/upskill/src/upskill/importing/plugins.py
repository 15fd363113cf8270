"""Plugins the clients list in files, as bundle `plugins:` entries.

Only what the install side can write back is imported, each as the descriptor whose
install reproduces it:

- opencode's `plugin[]` array of `opencode.json`, which the `plugin_uri` form appends
  to: `{opencode: {plugin_uri: …}}`;
- Claude Code's `enabledPlugins` (`"plugin@marketplace": true`) in
  `.claude/settings.json`, whose marketplace `extraKnownMarketplaces` declares with a
  source `claude plugin marketplace add` accepts (a GitHub `owner/repo`, a git or
  marketplace.json URL, a local directory or file): `{claude: {source, marketplace,
  plugin}}`, which runs `marketplace add` and `install` and so writes both keys back;
- VS Code's workspace recommendations (`.vscode/extensions.json`):
  `{vscode: {extension: …}}`.

Where a file lives is the client registry's (`PluginRoute.listed_in`). A plugin that
is switched off, pinned to versions, or comes from a marketplace that is undeclared or
declared with a source the CLI cannot take, is left out with a note. Copilot CLI keeps
its installed plugins in internal state (`~/.copilot/config.json`), not read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from upskill import jsonc
from upskill.clientconf.places import Places, client_scope
from upskill.clients import BY_ID
from upskill.clients.base import PluginRoute, PluginStyle
from upskill.errors import FormatError
from upskill.importing.model import Note, NoteKind
from upskill.importing.names import numbered, slug
from upskill.importing.read import read_text
from upskill.plugins.steps import PLUGIN_KEY, opencode_config, value_problem

ENABLED = "enabledPlugins"
MARKETPLACES = "extraKnownMarketplaces"
RECOMMENDATIONS = "recommendations"

# marketplace source kind -> the key holding what `marketplace add` is given
_SOURCE_KEYS = {"github": "repo", "git": "url", "url": "url", "directory": "path", "file": "path"}


def _document(path: Path, within: Path | None) -> dict[str, Any]:
    text = read_text(path, within)
    if text is None or not text.strip():
        return {}
    try:
        data = jsonc.loads(text)
    except jsonc.JsoncError as exc:
        raise FormatError(exc.message, path=path, line=exc.line) from None
    if not isinstance(data, dict):
        raise FormatError("must hold a JSON object", path=path)
    return data


def _member(data: Mapping[str, Any], key: str, kind: type, path: Path) -> Any:
    value = data.get(key)
    if value is not None and not isinstance(value, kind):
        shape = "an object" if kind is dict else "an array"
        raise FormatError(f"`{key}` must be {shape}", path=path)
    return value if value is not None else kind()


def _opencode(places: Places, home: bool) -> Iterator[tuple[str, dict[str, str]]]:
    location = opencode_config(client_scope(home), places)
    path = next((p for p in (location.path, *location.alternatives) if p.is_file()), None)
    if path is None:
        return
    for entry in _member(_document(path, location.within), PLUGIN_KEY, list, path):
        if isinstance(entry, str) and entry.strip():
            yield entry, {"plugin_uri": entry}


def _source(declared: object) -> str | None:
    """What `claude plugin marketplace add` is given for a declared marketplace, or None
    when its source is one the CLI cannot take (npm, a ref or sub-path, …)."""
    source = declared.get("source") if isinstance(declared, dict) else None
    if not isinstance(source, dict):
        return None
    key = _SOURCE_KEYS.get(str(source.get("source")))
    value = source.get(key) if key is not None else None
    if not isinstance(value, str) or set(source) != {"source", key}:
        return None
    return value if value_problem(value) is None else None


def _marketplace(
    data: Mapping[str, Any], path: Path, shown: str, notes: list[Note]
) -> Iterator[tuple[str, dict[str, str]]]:
    enabled = _member(data, ENABLED, dict, path)
    declared = _member(data, MARKETPLACES, dict, path)
    for ref, on in enabled.items():
        plugin, _, market = str(ref).rpartition("@")
        source = _source(declared.get(market))
        why = None
        if on is not True:
            why = "is not enabled with true (disabled or pinned to versions)"
        elif not plugin or not market or value_problem(plugin) or value_problem(market):
            why = "is not a plugin@marketplace reference"
        elif market not in declared:
            why = f"comes from marketplace {market!r}, which {MARKETPLACES} does not declare"
        elif source is None:
            why = f"comes from marketplace {market!r}, whose source `marketplace add` cannot take"
        if why is not None or source is None:
            notes.append(Note(NoteKind.SKIP, f"{shown}: plugin {ref!r} {why}; left out"))
            continue
        yield plugin, {"source": source, "marketplace": market, "plugin": plugin}


def _extensions(
    data: Mapping[str, Any], path: Path, shown: str, notes: list[Note]
) -> Iterator[tuple[str, dict[str, str]]]:
    for entry in _member(data, RECOMMENDATIONS, list, path):
        if not isinstance(entry, str) or value_problem(entry) is not None:
            notes.append(Note(NoteKind.SKIP, f"{shown}: recommendation {entry!r}; left out"))
            continue
        yield entry, {"extension": entry}


def _listed(
    route: PluginRoute, places: Places, home: bool, notes: list[Note]
) -> Iterator[tuple[str, dict[str, str]]]:
    if route.listed_in is None or (home and not route.listed_at_home):
        return
    base = places.home if home else places.root
    path = base / route.listed_in
    if not path.is_file():
        return
    data = _document(path, None if home else places.root)
    shown = f"~/{route.listed_in}" if home else route.listed_in
    if route.style is PluginStyle.MARKETPLACE:
        yield from _marketplace(data, path, shown, notes)
    elif route.style is PluginStyle.EXTENSION:
        yield from _extensions(data, path, shown, notes)


def scan_plugins(
    places: Places, clients: Iterable[str], *, home: bool
) -> tuple[dict[str, dict[str, Any]], list[Note]]:
    """`plugins:` of the bundle: name -> {client: descriptor}, in file order, and notes
    on what was left out."""
    out: dict[str, dict[str, Any]] = {}
    notes: list[Note] = []
    for client in clients:
        route = BY_ID[client].plugins
        if route is None:
            continue
        if route.style is PluginStyle.OPENCODE:
            found = _opencode(places, home)
        else:
            found = _listed(route, places, home, notes)
        for label, descriptor in found:
            name = numbered(slug(label) or "plugin", set(out))
            out[name] = {client: descriptor}
    return out, notes
