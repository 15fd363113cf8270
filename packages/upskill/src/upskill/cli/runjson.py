"""`--json` for the commands that change state: what a run planned and did.

One document on stdout per run (`add`, `update`, `remove`), shaped by
`docs/upskill/schemas/run.schema.json`: the items (re)installed and removed,
each file action (a kept file upskill never wrote with its adoption diff), each
change to a file upskill keeps besides its outputs (`extra_files`), per
client what its items, MCP servers and plugins did, the warnings and the hooks'
messages. `remove-mcp` has its own, smaller document
(`remove-mcp.schema.json`). Progress stays on stderr; the human summary is not
printed.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from upskill.cli.console import Console
from upskill.clients import BASELINE_CLIENTS, SELECTABLE_CLIENTS

if TYPE_CHECKING:
    from upskill.lifecycle.engine import Outcome
    from upskill.lifecycle.extrafiles import Entry, ExtraFile
    from upskill.lifecycle.flow import Committed
    from upskill.state.lockfile import Lockfile

SCHEMA_VERSION = 1
_QUIET_OPS = frozenset({"unchanged", "forget", "retain"})


def per_client(
    outcome: Outcome, lock: Lockfile | None, bundles: Collection[str]
) -> dict[str, dict[str, Any]]:
    """Per selectable client (canonical order), what a run's items and its bundles' MCP
    servers and plugins did there: `{items, mcp: [{name, status}], plugins: [...]}`.
    `lock` as saved after the hooks; None when they did not run (a dry run)."""
    clients: dict[str, dict[str, Any]] = {}

    def entry(client: str) -> dict[str, Any]:
        return clients.setdefault(client, {"items": 0, "mcp": [], "plugins": []})

    for item in outcome.items:
        for client in item.clients or BASELINE_CLIENTS:
            entry(client)["items"] += 1
    if lock is not None:
        for key, entries in (("mcp", lock.mcps), ("plugins", lock.plugins)):
            for e in entries:
                if e.bundle in bundles:
                    entry(e.client)[key].append({"name": e.name, "status": e.status})
    return {c: clients[c] for c in SELECTABLE_CLIENTS if c in clients}


def _file_entry(op: str, path: str, diff: Sequence[str]) -> dict[str, Any]:
    """One file action; a kept file upskill never wrote (`keep-unmanaged`) carries the
    unified diff from it to upskill's rendering, the lines the human output shows."""
    entry: dict[str, Any] = {"op": op, "path": path}
    if diff:
        entry["diff"] = list(diff)
    return entry


def entry_json(entry: Entry) -> dict[str, Any]:
    """An extra file's entry as `run.schema.json`'s `entry` (doctor's too)."""
    if entry.member is None:
        return {"key": entry.key, "item": entry.value}
    return {"key": entry.key, "member": entry.member, "value": entry.value}


def json_entry(data: Mapping[str, Any]) -> Entry:
    """`entry_json` read back."""
    from upskill.lifecycle.extrafiles import Entry

    if "item" in data:
        return Entry(data["key"], None, data["item"])
    return Entry(data["key"], data["member"], data["value"])


def _extra_entry(extra: ExtraFile) -> dict[str, Any]:
    """One extra file (`lifecycle.extrafiles`): what the run set and took back there."""
    return {
        "op": extra.op.value,
        "path": extra.path,
        "set": [entry_json(e) for e in extra.added],
        "took_back": [entry_json(e) for e in extra.taken],
    }


def run_document(
    command: str,
    outcome: Outcome,
    *,
    scope: str,
    dry_run: bool,
    lock: Lockfile | None = None,
    bundles: Collection[str] = (),
    messages: Iterable[str] = (),
) -> dict[str, Any]:
    """`lock`: the lockfile as saved after the hooks (None for a dry run, which runs none)."""
    return {
        "schema": SCHEMA_VERSION,
        "command": command,
        "scope": scope,
        "dry_run": dry_run,
        "items": [
            {"kind": i.kind, "name": i.name, "source": i.source, "clients": list(i.clients)}
            for i in outcome.items
        ],
        "removed": list(outcome.removed),
        "files": [
            _file_entry(a.op.value, a.path, outcome.diffs.get(a.path, ()))
            for a in outcome.plan.actions
            if a.op.value not in _QUIET_OPS
        ],
        "extra_files": [_extra_entry(x) for x in outcome.extras],
        "clients": per_client(outcome, lock, bundles),
        "warnings": list(outcome.warnings),
        "messages": list(messages),
    }


def committed_document(
    command: str, outcome: Outcome, committed: Committed, *, scope: str, bundles: Collection[str]
) -> dict[str, Any]:
    """The document of a run that wrote: the lockfile and messages as the hooks left them."""
    return run_document(
        command,
        outcome,
        scope=scope,
        dry_run=False,
        lock=committed.lock,
        bundles=bundles,
        messages=committed.messages,
    )


def empty_document(command: str, *, scope: str, dry_run: bool) -> dict[str, Any]:
    """A run that had nothing to do (nothing installed in the scope)."""
    return {
        "schema": SCHEMA_VERSION,
        "command": command,
        "scope": scope,
        "dry_run": dry_run,
        "items": [],
        "removed": [],
        "files": [],
        "extra_files": [],
        "clients": {},
        "warnings": [],
        "messages": [],
    }


def emit(console: Console, document: dict[str, Any]) -> int:
    console.done()
    console.json(json.dumps(document, indent=2) + "\n")
    return 0
