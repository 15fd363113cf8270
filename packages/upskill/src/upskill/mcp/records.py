"""Convert between lockfile `mcps[]` / `plugins[]` dicts and typed records.

The lockfile keeps these records as plain ordered dicts (unknown fields
survive rewrites); extension code works on typed records and converts at the
edge. A record this version cannot read is kept verbatim and left alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from upskill.mcp.model import McpRecord, Scope, Status, Target


def scope_of(value: object, default: Scope) -> Scope:
    return Scope(value) if value in ("project", "user") else default


def mcp_from_dict(raw: Mapping[str, Any], default_scope: Scope) -> McpRecord | None:
    try:
        return McpRecord(
            name=str(raw["name"]),
            client=Target(raw["client"]),
            scope=scope_of(raw.get("scope"), default_scope),
            bundle=str(raw.get("bundle", "")),
            status=Status(raw.get("status", "installed")),
        )
    except (KeyError, ValueError):
        return None


def mcp_to_dict(record: McpRecord) -> dict[str, Any]:
    return {
        "name": record.name,
        "client": record.client.value,
        "scope": record.scope.value,
        "bundle": record.bundle,
        "status": record.status.value,
    }


def upsert(
    existing: Sequence[Mapping[str, Any]], new: Sequence[Mapping[str, Any]]
) -> tuple[Mapping[str, Any], ...]:
    """Replace records with the same (name, client) in place; append the rest."""
    fresh = {(r["name"], r["client"]): r for r in new}
    merged = [fresh.pop((r.get("name"), r.get("client")), r) for r in existing]
    return (*merged, *fresh.values())
