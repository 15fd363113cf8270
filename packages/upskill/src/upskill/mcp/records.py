"""Convert between the lockfile's stored entries and the typed records MCP code works on.

The lockfile parser (`upskill.state.records`) has already checked every
field, so each conversion is total. What a stored entry may leave out is its
scope: it then means the lockfile's own scope, filled in here.
"""

from __future__ import annotations

from upskill.clientconf.places import Scope, scope_of
from upskill.mcp.model import McpRecord, Status
from upskill.state.records import McpEntry


def mcp_record(entry: McpEntry, default_scope: Scope) -> McpRecord:
    return McpRecord(
        name=entry.name,
        client=entry.client,
        scope=scope_of(entry.scope, default_scope),
        bundle=entry.bundle,
        status=Status(entry.status),
        sha256=entry.sha256,
    )


def mcp_entry(record: McpRecord) -> McpEntry:
    return McpEntry(
        name=record.name,
        client=record.client,
        scope=record.scope.value,
        bundle=record.bundle,
        status=record.status.value,
        sha256=record.sha256,
    )
