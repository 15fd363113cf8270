"""Remove a bundle's plugins when the bundle goes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from upskill.clientconf import configfile
from upskill.clientconf.clientcli import ClientCli
from upskill.clientconf.places import Places
from upskill.errors import UpskillError
from upskill.plugins import steps
from upskill.plugins.model import PluginRecord, PluginStatus


@dataclass(frozen=True)
class UninstallReport:
    notices: tuple[str, ...]
    warnings: tuple[str, ...]


def _from_opencode_config(record: PluginRecord, places: Places) -> bool:
    """opencode plugins live in a config file's `plugin[]`, whichever form added them;
    an array left empty goes too."""
    removed = False
    for location in steps.opencode_plugin_files(record.scope, places):
        try:
            removed = configfile.remove_from_array(location, record.identifier) or removed
        except UpskillError:
            continue
    return removed


def uninstall_plugins(
    records: Sequence[PluginRecord], *, places: Places, cli: ClientCli
) -> UninstallReport:
    """Uninstall installed records; skipped/instructions records have nothing to undo."""
    notices: list[str] = []
    warnings: list[str] = []
    for record in records:
        if record.status is not PluginStatus.INSTALLED:
            continue
        where = f"plugin {record.name} ({record.client})"
        problem = steps.value_problem(record.identifier)
        if problem is not None:  # the lockfile is data: checked as the install side checks
            warnings.append(f"{where}: not uninstalled: {problem}")
            continue
        if steps.uninstall_argv(record.client, record.identifier, record.scope) is None:
            if _from_opencode_config(record, places):
                notices.append(f"{where}: removed from its opencode config")
            else:
                notices.append(f"{where}: not in any opencode config; record dropped")
            continue
        argv = steps.uninstall_argv(record.client, record.identifier, record.scope)
        assert argv is not None
        result = cli.run(argv, places.root)
        if result is None:
            warnings.append(f"{where}: {argv[0]} CLI not found; uninstall it by hand")
        elif not result.ok:
            warnings.append(f"{where}: `{' '.join(argv[:3])}` failed: {result.message()}")
        else:
            notices.append(f"{where}: uninstalled {record.identifier}")
    return UninstallReport(tuple(notices), tuple(warnings))
