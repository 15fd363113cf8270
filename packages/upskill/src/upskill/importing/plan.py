"""Everything `upskill import` would write for one scope, computed without writing."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from upskill.clientconf.places import Places
from upskill.importing.instructions import scan_instructions
from upskill.importing.merge import merge
from upskill.importing.model import ImportPlan
from upskill.importing.output import registry_files
from upskill.importing.plugins import scan_plugins
from upskill.importing.scan import scan_items
from upskill.importing.servers import merge_servers, scan_servers


def plan_import(
    places: Places, clients: Sequence[str], *, home: bool, split: bool = False
) -> ImportPlan:
    """Read the clients' files under `places.root` (`home`: their user-level places) into
    the registry files that would hold them; raises `FormatError` on a broken file."""
    root: Path = places.root
    found = scan_items(root, clients, home=home)
    instructions, notes = scan_instructions(root, clients, home=home, split=split)
    items, merge_notes = merge([*found, *instructions], home=home)
    servers_found, server_notes = scan_servers(places, clients, home=home)
    servers, server_merge_notes = merge_servers(servers_found)
    plugins, plugin_notes = scan_plugins(places, clients, home=home)
    files = registry_files(items, servers, plugins) if items or servers or plugins else []
    return ImportPlan(
        items=tuple(items),
        servers=tuple(servers),
        plugins=tuple(plugins),
        files=tuple(files),
        notes=(*notes, *merge_notes, *server_notes, *server_merge_notes, *plugin_notes),
    )
