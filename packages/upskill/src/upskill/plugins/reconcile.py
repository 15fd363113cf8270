"""doctor's plugin buckets: installed-but-missing (drift) and skipped (informational)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from upskill.clientconf import configfile
from upskill.clientconf.clientcli import ClientCli, CliResult
from upskill.clientconf.places import Places
from upskill.errors import UpskillError
from upskill.plugins import steps
from upskill.plugins.model import PluginRecord, PluginStatus


@dataclass(frozen=True)
class PluginChecks:
    missing: tuple[PluginRecord, ...]
    skipped: tuple[PluginRecord, ...]
    unverified: tuple[tuple[PluginRecord, str], ...]  # advisory: cannot tell


def reconcile_plugins(
    records: Sequence[PluginRecord], *, places: Places, cli: ClientCli
) -> PluginChecks:
    """Each client's listing runs at most once per scope."""
    listings: dict[tuple[str, ...], CliResult | None] = {}
    missing: list[PluginRecord] = []
    unverified: list[tuple[PluginRecord, str]] = []
    for record in records:
        if record.status is not PluginStatus.INSTALLED:
            continue
        argv = steps.list_argv(record.client, record.scope)
        if argv is None:  # opencode: its config files are the record
            try:
                found = any(
                    configfile.array_contains(location, record.identifier)
                    for location in steps.opencode_plugin_files(record.scope, places)
                )
            except UpskillError as exc:
                unverified.append((record, str(exc)))
                continue
            if not found:
                missing.append(record)
            continue
        key = tuple(argv)
        if key not in listings:
            listings[key] = cli.run(argv, places.root)
        listing = listings[key]
        if listing is None:
            unverified.append((record, f"{argv[0]} CLI not found"))
        elif not listing.ok:
            unverified.append((record, f"`{' '.join(argv)}` failed: {listing.message()}"))
        elif not steps.is_listed(record.client, record.identifier, listing.stdout):
            missing.append(record)
    skipped = tuple(r for r in records if r.status is PluginStatus.SKIPPED)
    return PluginChecks(tuple(missing), skipped, tuple(unverified))
