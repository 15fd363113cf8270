"""Install a bundle's plugins for the selected clients.

Outcomes per (plugin, client): installed (recorded), CLI absent (warn-skip,
recorded `skipped`), instructions (notice, recorded `instructions`), or a
present CLI failing (warning, not recorded: a transient error must not
pollute the lockfile).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from upskill.clientconf import configfile
from upskill.clientconf.clientcli import ClientCli
from upskill.clientconf.places import Places, Scope
from upskill.errors import UpskillError
from upskill.format.model import (
    Plugin,
    PluginConfigWrite,
    PluginDescriptor,
    PluginInstructions,
)
from upskill.plugins import steps
from upskill.plugins.model import PluginRecord, PluginStatus


@dataclass(frozen=True)
class PluginReport:
    records: tuple[PluginRecord, ...]
    failed: tuple[tuple[str, str], ...]  # (name, client) a present CLI failed for
    notices: tuple[str, ...]
    warnings: tuple[str, ...]


@dataclass(frozen=True)
class _Outcome:
    status: PluginStatus | None  # None: failed, not recorded
    message: str


def _instructions(name: str, client: str, d: PluginInstructions) -> _Outcome:
    text = f"plugin {name} ({client}): install it manually, see {d.instructions_url}"
    if d.summary:
        text += "\n" + "\n".join("  " + line for line in d.summary.strip().splitlines())
    return _Outcome(PluginStatus.INSTRUCTIONS, text)


def _config_write(name: str, d: PluginConfigWrite, scope: Scope, places: Places) -> _Outcome:
    location = steps.opencode_config(scope, places)
    try:
        configfile.add_to_array(location, d.plugin_uri)
    except UpskillError as exc:
        return _Outcome(None, f"plugin {name} (opencode): not installed: {exc}")
    return _Outcome(PluginStatus.INSTALLED, f"plugin {name} (opencode): added to {location.path}")


def _via_cli(
    name: str, client: str, d: PluginDescriptor, scope: Scope, places: Places, cli: ClientCli
) -> _Outcome:
    where = f"plugin {name} ({client})"
    problem = steps.argument_problem(d)
    if problem is not None:
        return _Outcome(None, f"{where}: not installed: {problem}")
    argvs = steps.install_argvs(client, d, scope)
    problems = []
    for argv in argvs:
        result = cli.run(argv, places.root)
        if result is None:
            url = steps.install_url(d)
            hint = f"; install it by hand: {url}" if url else ""
            return _Outcome(
                PluginStatus.SKIPPED, f"{where}: {argv[0]} CLI not found, skipped{hint}"
            )
        if not result.ok:
            problems.append(f"`{' '.join(argv[:3])}` failed: {result.message()}")
            # A failed `marketplace add` is usually "already added": let install decide.
            if argv is argvs[-1]:
                return _Outcome(None, f"{where}: not installed: " + "; ".join(problems))
    return _Outcome(PluginStatus.INSTALLED, f"{where}: installed {steps.identifier(d)}")


def install_plugins(
    plugins: Iterable[Plugin],
    clients: Sequence[str],
    *,
    scope: Scope,
    bundle: str,
    places: Places,
    cli: ClientCli,
) -> PluginReport:
    """Install every plugin block whose client is selected; other blocks are skipped silently."""
    records: list[PluginRecord] = []
    failed: list[tuple[str, str]] = []
    notices: list[str] = []
    warnings: list[str] = []
    for plugin in plugins:
        for client, descriptor in plugin.clients.items():
            if client not in clients:
                continue
            if isinstance(descriptor, PluginInstructions):
                outcome = _instructions(plugin.name, client, descriptor)
            elif isinstance(descriptor, PluginConfigWrite):
                outcome = _config_write(plugin.name, descriptor, scope, places)
            else:
                outcome = _via_cli(plugin.name, client, descriptor, scope, places, cli)
            if outcome.status is None:
                failed.append((plugin.name, client))
                warnings.append(outcome.message)
                continue
            ident = steps.identifier(descriptor)
            records.append(PluginRecord(plugin.name, client, ident, scope, bundle, outcome.status))
            (warnings if outcome.status is PluginStatus.SKIPPED else notices).append(
                outcome.message
            )
    return PluginReport(tuple(records), tuple(failed), tuple(notices), tuple(warnings))
