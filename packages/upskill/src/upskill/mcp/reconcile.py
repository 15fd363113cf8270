"""doctor's MCP bucket: is each recorded server still registered with its client?"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from upskill.clientconf import configfile
from upskill.clientconf.clientcli import ClientCli, CliResult
from upskill.clientconf.places import Places
from upskill.errors import UpskillError
from upskill.mcp import shapes
from upskill.mcp.model import McpRecord, Status


class Check(enum.StrEnum):
    OK = "ok"
    NOT_REGISTERED = "not-registered"
    QUERY_FAILED = "query-failed"
    CONFIG_MISSING = "config-missing"
    CONFIG_UNREADABLE = "config-unreadable"
    SKIPPED = "skipped"


@dataclass(frozen=True)
class McpCheck:
    record: McpRecord
    status: Check
    detail: str = ""

    @property
    def is_drift(self) -> bool:
        """Only a server known to be missing fails doctor; "cannot verify" is advisory."""
        return self.status is Check.NOT_REGISTERED

    def to_json(self) -> dict[str, object]:
        status: object = self.status.value
        if self.status is Check.QUERY_FAILED:
            status = {"query-failed": {"stderr": self.detail}}
        elif self.status is Check.CONFIG_UNREADABLE:
            status = {"config-unreadable": {"error": self.detail}}
        return {
            "name": self.record.name,
            "client": self.record.client,
            "bundle": self.record.bundle,
            "status": status,
        }


def listed_names(output: str) -> set[str]:
    """Server names in `claude mcp list` output (`<name>: <target> - <health>` lines)."""
    names = set()
    for line in output.splitlines():
        head, sep, _ = line.partition(": ")
        if sep and head.strip() and " " not in head.strip():
            names.add(head.strip())
    return names


def _listed(record: McpRecord, listing: CliResult) -> McpCheck:
    if not listing.ok:
        return McpCheck(record, Check.QUERY_FAILED, listing.stderr.strip() or listing.message())
    if record.name in listed_names(listing.stdout):
        return McpCheck(record, Check.OK)
    return McpCheck(record, Check.NOT_REGISTERED)


def _file(record: McpRecord, places: Places) -> McpCheck:
    location = shapes.doctor_location(record.client, record.scope, places)
    if location is None:
        return McpCheck(record, Check.CONFIG_MISSING)
    try:
        found = configfile.lookup(location, record.name)
    except UpskillError as exc:
        return McpCheck(record, Check.CONFIG_UNREADABLE, str(exc))
    if not found.present_file:
        return McpCheck(record, Check.CONFIG_MISSING, str(location.path))
    return McpCheck(record, Check.OK if found.registered else Check.NOT_REGISTERED)


def reconcile(
    records: Sequence[McpRecord], *, places: Places, cli: ClientCli
) -> tuple[McpCheck, ...]:
    """Check every record; each client's `mcp list` runs at most once."""
    listings: dict[str, CliResult | None] = {}

    def listing(client: str, root: Path) -> CliResult | None:
        if client not in listings:
            argv = shapes.list_argv(client)
            assert argv is not None
            listings[client] = cli.run(argv, root)
        return listings[client]

    checks = []
    for record in records:
        if record.status is Status.SKIPPED:
            checks.append(McpCheck(record, Check.SKIPPED))
        elif shapes.list_argv(record.client) is not None:
            listed = listing(record.client, places.root)
            # without the CLI, upskill wrote the config file itself: verify that file
            checks.append(_listed(record, listed) if listed is not None else _file(record, places))
        else:
            checks.append(_file(record, places))
    return tuple(checks)
