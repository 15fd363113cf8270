"""Find the rules, skills and agents the selected clients keep in one scope.

Where to look comes from the client registry only: each kind's `Layout` (the same
template rendering writes through, `{n}` standing for the name) says which directory
to list and what a file there is called. A path several clients write (the shared
`.agents/skills/` tree) is read once, and every render target writing exactly that
path is one of its owners, so a mapping can be checked against each of them. Rules in
subfolders of a flat tree are found too (`sub/x`, named `sub-x` by `merge`), and the
folder beside a flat item is its resources (`flatres`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from upskill.clients import BY_ID, RENDER_TARGETS
from upskill.clients.base import Carrier, Client, Layout
from upskill.format.model import KINDS, Kind, Resource
from upskill.format.resources import collect_resources, scan_files
from upskill.importing.flatres import linked_resources, sibling_resources, unprefix_links
from upskill.importing.model import FoundItem
from upskill.importing.names import portable_name
from upskill.importing.read import parse_json_object, parse_markdown, parse_toml, read_text
from upskill.render.item import JSON_BODY, TOML_BODY


def owners(kind: Kind, path: str, name: str, *, home: bool) -> tuple[str, ...]:
    """The render targets that write `name` of `kind` to exactly `path` in this scope."""
    return tuple(
        t for t in RENDER_TARGETS if BY_ID[t].entrypoint(kind.value, name, home=home) == path
    )


MAX_RULE_DEPTH = 8  # subfolders of a rule tree read below it


def _flat(
    directory: Path, head: str, tail: str, prefix: str, depth: int
) -> Iterator[tuple[str, str]]:
    """(name, relative path) of the files ending in `tail` in `directory` and, up to
    `depth` levels, in its subfolders (not hidden, not symlinked, and not the resource
    folder `x/` of an item `x<tail>` beside it), a nested name as `sub/x`."""
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except (FileNotFoundError, NotADirectoryError):
        return
    items = {
        e.name for e in entries if e.name.endswith(tail) and len(e.name) > len(tail) and e.is_file()
    }
    for entry in entries:
        if entry.name in items:
            yield prefix + entry.name[: -len(tail)], f"{head}{prefix}{entry.name}"
        elif (
            depth > 0
            and not entry.name.startswith(".")
            and f"{entry.name}{tail}" not in items
            and entry.is_dir(follow_symlinks=False)
        ):
            yield from _flat(Path(entry.path), head, tail, f"{prefix}{entry.name}/", depth - 1)


def _candidates(root: Path, layout: Layout, kind: Kind) -> Iterator[tuple[str, str]]:
    """(name, relative path) of every file in `root` that `layout` could have written;
    rules also in subfolders of a flat tree (Claude Code, Copilot and Cursor read them)."""
    head, tail = layout.template.split("{n}", 1)
    if layout.flat:
        yield from _flat(root / head, head, tail, "", MAX_RULE_DEPTH if kind is Kind.RULE else 0)
        return
    directory = root / head
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except (FileNotFoundError, NotADirectoryError):
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False) and (Path(entry.path) / tail[1:]).is_file():
            yield entry.name, f"{head}{entry.name}{tail}"


def _read(client: Client, kind: Kind, root: Path, rel: str, name: str, home: bool) -> FoundItem:
    path = root / rel
    within = None if home else root
    text = read_text(path, within)
    assert text is not None  # listed a moment ago
    where = client.kinds[kind.value]
    if where.carrier in (Carrier.TOML, Carrier.JSON):
        toml = where.carrier is Carrier.TOML
        data = parse_toml(text, path) if toml else parse_json_object(text, path)
        body = data.pop(TOML_BODY if toml else JSON_BODY, "")
        fields, text_body = data, body if isinstance(body, str) else ""
    else:
        document = parse_markdown(text, path, client.raw_keys)
        fields, text_body = dict(document.fields), document.body
    layout = where.at(home)
    head, tail = layout.template.split("{n}", 1)
    linked: tuple[Resource, ...] = ()
    if layout.flat:
        stem = name.rsplit("/", 1)[-1]
        resources = sibling_resources(path, stem)
        text_body = unprefix_links(text_body, stem, resources)

        def is_item(rel: str) -> bool:
            if rel.startswith(f"{stem}/"):
                return True  # the folder's own files, under the names rendering gives them
            return rel.endswith(tail) and (kind is Kind.RULE or "/" not in rel)

        linked = linked_resources(path, text_body, resources, is_item, within)
        resources = tuple(sorted((*resources, *linked), key=lambda r: r.path))
    else:
        resources = collect_resources(scan_files(path.parent), ()) if kind is Kind.SKILL else ()
    # A rule in a subfolder lands flat under its portable name (`sub/x` -> `sub-x`): the
    # targets writing that path are its owners.
    placed = portable_name(name, kind.value, skill=False) if "/" in name else name
    return FoundItem(
        kind=kind,
        name=name,
        path=rel,
        owners=owners(kind, f"{head}{placed}{tail}", placed, home=home),
        fields=fields,
        body=text_body,
        resources=resources,
        linked=tuple(r.path for r in linked),
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
            for name, rel in _candidates(root, where.at(home), kind):
                if rel not in found:
                    found[rel] = _read(client, kind, root, rel, name, home)
    return list(found.values())
