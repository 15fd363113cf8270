"""Convert between the lockfile's stored entries and the typed records MCP code works on.

The lockfile parser (`upskill.state.records`) has already checked every
field, so each conversion is total. What a stored entry may leave out is its
scope: it then means the lockfile's own scope, filled in here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from upskill.mcp.model import McpRecord, Scope, Status, Target
from upskill.state.records import McpEntry, PluginEntry

_E = TypeVar("_E", McpEntry, PluginEntry)


def scope_of(value: str | None, default: Scope) -> Scope:
    return default if value is None else Scope(value)


def mcp_record(entry: McpEntry, default_scope: Scope) -> McpRecord:
    return McpRecord(
        name=entry.name,
        client=Target(entry.client),
        scope=scope_of(entry.scope, default_scope),
        bundle=entry.bundle,
        status=Status(entry.status),
    )


def mcp_entry(record: McpRecord) -> McpEntry:
    return McpEntry(
        name=record.name,
        client=record.client.value,
        scope=record.scope.value,
        bundle=record.bundle,
        status=record.status.value,
    )


def upsert(existing: Sequence[_E], new: Sequence[_E]) -> tuple[_E, ...]:
    """Replace entries with the same (name, client) in place; append the rest."""
    fresh: dict[tuple[str, str], _E] = {(e.name, e.client): e for e in new}
    merged: list[_E] = [fresh.pop((e.name, e.client), e) for e in existing]
    merged.extend(fresh.values())
    return tuple(merged)
