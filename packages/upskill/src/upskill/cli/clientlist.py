"""What `upskill clients` shows: the registry, one row per client, for the run's scope."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from upskill.clients import CLIENTS
from upskill.clients.base import KIND_NAMES, Carrier, Client

SCHEMA_VERSION = 1


def _kinds(client: Client, *, home: bool) -> dict[str, str | None]:
    """Per kind, the entrypoint template in this scope, or None: no native place."""
    return {kind: client.entrypoint(kind, "<n>", home=home) for kind in KIND_NAMES}


def _mcp(client: Client, *, home: bool) -> str | None:
    if client.mcp is None:
        return None
    file = client.mcp.user if home else client.mcp.project
    return None if file is None else file.path


def clients_json(detected: Mapping[str, str], *, home: bool) -> dict[str, Any]:
    return {
        "schema": SCHEMA_VERSION,
        "scope": "global" if home else "project",
        "clients": [
            {
                "id": c.id,
                "name": c.name,
                "family": c.family,
                "detected": detected.get(c.id),
                "baseline": c.baseline,
                "kinds": _kinds(c, home=home),
                "mcp": _mcp(c, home=home),
                "plugins": c.plugins is not None,
            }
            for c in CLIENTS
        ],
    }


def _mark(client: Client, kind: str) -> str:
    """`file`: the kind is compiled into one instructions file (always-on rules only)."""
    return "file" if client.kinds[kind].carrier is Carrier.COMPILED else "yes"


def clients_text(detected: Mapping[str, str], *, home: bool) -> str:
    header = ("client", "rules", "skills", "agents", "mcp", "detected")
    rows: list[tuple[str, ...]] = [header]
    for c in CLIENTS:
        kinds = _kinds(c, home=home)
        marks = [_mark(c, k) if kinds[k] else "-" for k in KIND_NAMES]
        rows.append((c.id, *marks, "yes" if _mcp(c, home=home) else "-", detected.get(c.id, "-")))
    widths = [max(len(r[i]) for r in rows) for i in range(len(header) - 1)]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False)) + "  " + row[-1]
        for row in rows
    ]
    return "\n".join(line.rstrip() for line in lines) + "\n"
