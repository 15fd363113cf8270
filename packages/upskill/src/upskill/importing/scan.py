"""Find the rules, skills and agents the selected clients keep in one scope.

Where to look comes from the client registry only: each kind's `Layout` (the same
template rendering writes through, `{n}` standing for the name) says which directory
to list and what a file there is called. A path several clients write (the shared
`.agents/skills/` tree) is read once, and every render target writing exactly that
path is one of its owners, so a mapping can be checked against each of them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from upskill.clients import BY_ID, RENDER_TARGETS
from upskill.clients.base import Carrier, Client, Layout
from upskill.format.model import KINDS, Kind, Resource
from upskill.format.resources import collect_resources, scan_files
from upskill.importing.model import FoundItem
from upskill.importing.read import parse_markdown, parse_toml, read_text
from upskill.render.item import TOML_BODY


def owners(kind: Kind, path: str, name: str, *, home: bool) -> tuple[str, ...]:
    """The render targets that write `name` of `kind` to exactly `path` in this scope."""
    return tuple(
        t for t in RENDER_TARGETS if BY_ID[t].entrypoint(kind.value, name, home=home) == path
    )


def _candidates(root: Path, layout: Layout) -> Iterator[tuple[str, str]]:
    """(name, relative path) of every file in `root` that `layout` could have written."""
    head, tail = layout.template.split("{n}", 1)
    directory = root / head
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except (FileNotFoundError, NotADirectoryError):
        return
    for entry in entries:
        if layout.flat:
            if entry.name.endswith(tail) and len(entry.name) > len(tail) and entry.is_file():
                yield entry.name[: -len(tail)], f"{head}{entry.name}"
        elif entry.is_dir(follow_symlinks=False) and (Path(entry.path) / tail[1:]).is_file():
            yield entry.name, f"{head}{entry.name}{tail}"


def _read(client: Client, kind: Kind, root: Path, rel: str, name: str, home: bool) -> FoundItem:
    path = root / rel
    within = None if home else root
    text = read_text(path, within)
    assert text is not None  # listed a moment ago
    where = client.kinds[kind.value]
    if where.carrier is Carrier.TOML:
        data = parse_toml(text, path)
        body = data.pop(TOML_BODY, "")
        fields, text_body = data, body if isinstance(body, str) else ""
    else:
        document = parse_markdown(text, path, client.raw_keys)
        fields, text_body = dict(document.fields), document.body
    resources: tuple[Resource, ...] = ()
    layout = where.at(home)
    if kind is Kind.SKILL and not layout.flat:
        resources = collect_resources(scan_files(path.parent), ())
    return FoundItem(
        kind=kind,
        name=name,
        path=rel,
        owners=owners(kind, rel, name, home=home),
        fields=fields,
        body=text_body,
        resources=resources,
    )


def scan_items(root: Path, clients: Iterable[str], *, home: bool) -> list[FoundItem]:
    """Every item the clients' trees hold under `root`, each path once, in registry order."""
    found: dict[str, FoundItem] = {}
    for client_id in clients:
        client = BY_ID[client_id]
        for kind in KINDS:
            where = client.kinds.get(kind.value)
            if where is None or not where.serves(home) or where.carrier is Carrier.COMPILED:
                continue  # a compiled AGENTS.md is an instructions file (`instructions`)
            for name, rel in _candidates(root, where.at(home)):
                if rel not in found:
                    found[rel] = _read(client, kind, root, rel, name, home)
    return list(found.values())
