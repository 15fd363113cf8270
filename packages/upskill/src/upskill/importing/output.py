"""The registry's files for the merged items and servers, in the canonical form
`upskill fmt` would leave them in (so `lint --strict` finds no layout to fix).

Layout: `<plural>/<name>/<KIND>.md` with override files and a skill's files beside
it, and one bundle, `imported.bundle.yaml`, listing every item and holding the MCP
servers and plugins, so `upskill add <dir> imported` installs all of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from upskill.author.canonical import canonical_body
from upskill.format.bundles import BUNDLE_SUFFIX
from upskill.format.model import KINDS
from upskill.importing.model import OutFile, PortableItem
from upskill.importing.names import numbered
from upskill.markdown import format_body
from upskill.render.yaml_emit import emit_mapping

BUNDLE = "imported"


def item_dir(item: PortableItem) -> str:
    return f"{item.kind.plural}/{item.name}"


def item_files(item: PortableItem) -> list[OutFile]:
    base = item_dir(item)
    text = f"---\n{emit_mapping(item.frontmatter)}---\n{canonical_body(item.body)}"
    files = [OutFile(f"{base}/{item.kind.entrypoint}", text.encode("utf-8"))]
    for client, body in sorted(item.overrides.items()):
        files.append(
            OutFile(f"{base}/{item.kind.name}.{client}.md", format_body(body).encode("utf-8"))
        )
    files.extend(OutFile(f"{base}/{r.path}", r.data, r.mode) for r in item.resources)
    return files


def bundle_name(items: Sequence[PortableItem]) -> str:
    return numbered(BUNDLE, {i.name for i in items})


def bundle_file(
    items: Sequence[PortableItem],
    servers: Mapping[str, Mapping[str, Any]],
    plugins: Mapping[str, Mapping[str, Any]],
) -> OutFile:
    name = bundle_name(items)
    document: dict[str, Any] = {
        "schema": 1,
        "name": name,
        "description": "Everything `upskill import` found in the clients' files",
    }
    listed = {k.plural: sorted(i.name for i in items if i.kind is k) for k in KINDS}
    listed = {k: v for k, v in listed.items() if v}
    if listed:
        document["items"] = listed
    if plugins:
        document["plugins"] = {name: dict(entry) for name, entry in plugins.items()}
    if servers:
        document["mcps"] = {name: dict(entry) for name, entry in servers.items()}
    return OutFile(f"{name}{BUNDLE_SUFFIX}", emit_mapping(document).encode("utf-8"))


def registry_files(
    items: Sequence[PortableItem],
    servers: Mapping[str, Mapping[str, Any]],
    plugins: Mapping[str, Mapping[str, Any]],
) -> list[OutFile]:
    files = [f for item in items for f in item_files(item)]
    files.append(bundle_file(items, servers, plugins))
    return sorted(files, key=lambda f: f.path)
