"""The client registry is complete, consistent, and the only description of a client.

Every module under `upskill/clients/` that describes a client is in the table;
every client states each fact the rest of upskill derives from; the docs tables
are what the registry renders.
"""

from __future__ import annotations

import pkgutil
import re
from pathlib import Path

import pytest

import upskill.clients as package
from upskill.clients import CLIENTS, FAMILIES, RENDER_TARGETS, matrix
from upskill.clients.base import KIND_NAMES, Carrier, Client
from upskill.format.vocabulary import CAPABILITIES

REPO = Path(__file__).resolve().parents[4]
NOT_CLIENTS = {"base", "registry", "matrix"}
IDS = [c.id for c in CLIENTS]


def test_every_client_module_is_registered_once() -> None:
    # A module named for a Python keyword takes a trailing `_` (continue_.py).
    found = {m.name for m in pkgutil.iter_modules(package.__path__)} - NOT_CLIENTS
    modules = {name.removesuffix("_") for name in found}
    assert sorted(modules) == sorted(IDS)
    assert len(set(IDS)) == len(IDS)


@pytest.mark.parametrize("client", CLIENTS, ids=IDS)
def test_client_states_every_fact(client: Client) -> None:
    assert re.fullmatch(r"[a-z][a-z0-9-]*", client.id)
    assert client.name.strip() and client.docs
    assert client.family in FAMILIES
    assert client.detect.paths or client.detect.executables
    assert set(client.kinds) <= set(KIND_NAMES)
    assert client.kinds or client.mcp is not None, "a client must receive something"
    for kind, where in client.kinds.items():
        for layout in (where.project, where.user):
            if layout is None:
                continue
            # one file per item, or one compiled file holding every rule
            names = 0 if where.carrier is Carrier.COMPILED else 1
            assert layout.template.count("{n}") == names, (kind, layout)
            assert not layout.template.startswith(("/", "~")), (kind, layout)
            assert ".." not in layout.template.split("/"), (kind, layout)
    assert set(client.tools) <= set(CAPABILITIES)
    assert all(client.tools.values())
    assert set(client.models) <= {"sonnet", "opus", "haiku"}
    if client.tree:
        assert client.tree in RENDER_TARGETS and client.tree != client.id
    if client.mcp is not None:
        assert client.mcp.root_key and (client.mcp.project or client.mcp.user)
        assert set(client.mcp.remote_types) <= {"http", "sse"}
    # One agent name in several trees: one copy shown or every copy, never both, and
    # only for a client that reads more than one agent tree.
    assert not (client.agent_trees and client.lists_agent_copies)
    if client.agent_trees or client.lists_agent_copies:
        assert len(client.project_agent_trees()) > 1


def test_a_rendered_path_belongs_to_one_kind() -> None:
    """Two clients may share a tree (`.agents/skills`) only for the same kind."""
    kind_of: dict[str, str] = {}
    for client in CLIENTS:
        for kind, where in client.kinds.items():
            for layout in (where.project, where.user):
                if layout is not None:
                    assert kind_of.setdefault(layout.template, kind) == kind, layout


@pytest.mark.parametrize(
    "doc", ["docs/upskill/clients.md", "packages/upskill/README.md"], ids=["clients.md", "README"]
)
def test_docs_tables_are_generated_from_the_registry(doc: str) -> None:
    text = (REPO / doc).read_text(encoding="utf-8")
    assert "<!-- clients:project:begin -->" in text
    assert matrix.refresh(text) == text, (
        f"{doc} drifted from the registry: run `uv run python -m upskill.clients.matrix {doc}`"
    )


def test_contributing_explains_adding_a_client() -> None:
    text = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert "## Adding a client" in text


def test_published_schemas_name_every_client() -> None:
    import json

    from upskill.clients import MCP_CLIENTS, SELECTABLE_CLIENTS

    schemas = REPO / "docs" / "upskill" / "schemas"
    run = json.loads((schemas / "run.schema.json").read_text())
    assert run["$defs"]["client"]["enum"] == list(SELECTABLE_CLIENTS)
    remove = json.loads((schemas / "remove-mcp.schema.json").read_text())
    assert remove["properties"]["clients"]["items"]["enum"] == list(MCP_CLIENTS)


def test_global_table_shows_no_place_where_a_client_has_none() -> None:
    """Cursor keeps user rules in its settings UI and Windsurf in one global file: the
    table says `—` there, as `upskill clients -g` and the install do."""
    rows = {line.split(" | ")[0]: line for line in matrix.global_table().splitlines()}
    assert rows["| Cursor"].startswith("| Cursor | — | `~/.cursor/skills/<n>/SKILL.md` |")
    assert rows["| Windsurf"].startswith("| Windsurf | — |")
