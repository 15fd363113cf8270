"""`remove-mcp`: unregister a server from every target its records name."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from upskill.clientconf import configfile
from upskill.clientconf.clientcli import ClientCli
from upskill.clientconf.places import Places
from upskill.errors import UpskillError
from upskill.mcp import ownership, shapes
from upskill.mcp.model import McpRecord, Status
from upskill.mcp.ownership import Verdict


@dataclass(frozen=True)
class UnregisterReport:
    """Records to drop from the lockfile, and lines for the CLI to show."""

    dropped: tuple[McpRecord, ...]
    notices: tuple[str, ...]
    warnings: tuple[str, ...]


def _delete_from_file(record: McpRecord, places: Places) -> tuple[bool, str | None]:
    location = shapes.config_location(record.client, record.scope, places)
    if location is None:
        return False, None
    try:
        return configfile.delete(location, record.name), None
    except UpskillError as exc:
        return False, str(exc)


def _shared(record: McpRecord, keep: Sequence[McpRecord], places: Places) -> McpRecord | None:
    """A kept record of another client reading the same entry (Claude Code and Copilot CLI
    share a project's `.mcp.json`): that entry must stay."""
    location = shapes.doctor_location(record.client, record.scope, places)
    if location is None:
        return None
    for other in keep:
        if other.name != record.name or other.status is not Status.INSTALLED:
            continue
        there = shapes.doctor_location(other.client, other.scope, places)
        if there is not None and there.path == location.path:
            return other
    return None


def unregister(
    records: Sequence[McpRecord],
    *,
    places: Places,
    cli: ClientCli,
    keep: Sequence[McpRecord] = (),
) -> UnregisterReport:
    """Unregister each record (CLI first, config entry second); every record is dropped.

    Only an entry that still has the digest upskill recorded is removed
    (`mcp/ownership.py`): the user's own server of the same name, or one they
    edited, stays.

    A record is dropped even when the client no longer knows the server: the
    server may have been removed out of band, and keeping the record would
    make doctor report it forever.
    """
    notices: list[str] = []
    warnings: list[str] = []
    for record in records:
        where = f"mcp {record.name}: {record.client}"
        if record.status is Status.SKIPPED:
            notices.append(f"{where}: was never configured; record dropped")
            continue
        problem = shapes.name_problem(record.name)
        if problem is not None:  # the lockfile is data: checked as the install side checks
            warnings.append(f"{where}: not removed: {problem}; record dropped")
            continue
        sharer = _shared(record, keep, places)
        if sharer is not None:
            notices.append(f"{where}: record dropped; the entry stays for {sharer.client}")
            continue
        location = shapes.doctor_location(record.client, record.scope, places)
        verdict, _ = ownership.judge(location, record.name, record.sha256)
        if verdict not in (Verdict.OURS, Verdict.FREE):
            # FREE: not in the file; the client's CLI may still hold it elsewhere
            shown = location.path if location is not None else "its config"
            why = "is not the one upskill wrote" if verdict is Verdict.THEIRS else "cannot be read"
            warnings.append(f"{where}: the entry in {shown} {why}; left in place, record dropped")
            continue
        argv = shapes.remove_argv(record.name, record.client, record.scope)
        result = cli.run(argv, places.root) if argv is not None else None
        if result is not None and result.ok:
            notices.append(f"{where}: removed via `{argv[0] if argv else ''}`")
            continue
        removed, problem = _delete_from_file(record, places)
        if removed:
            notices.append(f"{where}: removed from its config file")
        elif problem is not None:
            warnings.append(f"{where}: could not edit config: {problem}")
        elif result is not None:
            warnings.append(
                f"{where}: `{argv[0] if argv else ''} mcp remove` failed: {result.message()}"
            )
        else:
            notices.append(f"{where}: not registered; record dropped")
    return UnregisterReport(tuple(records), tuple(notices), tuple(warnings))
