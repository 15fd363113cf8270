"""Check the installed state against the lockfile without fetching anything.

Buckets follow the Commands chapter (`missing_outputs`, `stale_hashes`,
`orphan_entries`, the plugin/MCP buckets filled by extension hooks) plus
`modified_outputs`: recorded outputs whose bytes differ from what upskill
wrote (hand edits), which `update` keeps and `update --force` replaces.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from upskill.errors import UpskillError
from upskill.lifecycle.hashing import tree_hash
from upskill.lifecycle.journal import STATE_DIR
from upskill.lifecycle.observe import observe
from upskill.lifecycle.scope import JOURNAL_NAME, Scope
from upskill.sources.spec import SourceError, SourceKind, SourceSpec, parse_label
from upskill.state.lockfile import ItemRecord, Lockfile

DRIFT_BUCKETS = (
    "interrupted_runs",
    "missing_outputs",
    "modified_outputs",
    "mode_drift",
    "stale_hashes",
    "orphan_entries",
    "missing_plugins",
    "hidden_agents",
    "hidden_instructions",
    "missing_extra_entries",
)


@dataclass(frozen=True)
class Report:
    buckets: Mapping[str, list[Any]]

    @property
    def problems(self) -> int:
        """Entries that make doctor exit 1; skipped plugins and unverifiable MCP
        entries are informational and do not count."""
        drift = sum(len(self.buckets.get(b) or []) for b in DRIFT_BUCKETS)
        unregistered = sum(
            1 for e in self.buckets.get("mcp_entries", []) if e.get("status") == "not-registered"
        )
        return drift + unregistered

    @property
    def clean(self) -> bool:
        return self.problems == 0


def run_state(scope: Scope) -> list[dict[str, str]]:
    """Journals in the way of a clean state: this user's journal of an interrupted run
    (`pending`), and a journal inside the project (`foreign`), which a repository can
    carry and upskill never replays (docs/security.md)."""
    found = []
    if os.path.lexists(scope.journal):
        found.append({"path": str(scope.journal), "status": "pending"})
    planted = scope.root / STATE_DIR / JOURNAL_NAME
    if os.path.lexists(planted):
        found.append({"path": str(planted), "status": "foreign"})
    return found


def check(root: Path, lock: Lockfile, anchor: Path | None = None) -> dict[str, list[Any]]:
    """`anchor`: the project root relative local labels are read against."""
    observed = observe(root, [o.path for o in lock.outputs])
    missing: dict[str, list[str]] = {}
    modified: list[dict[str, Any]] = []
    modes: list[dict[str, Any]] = []
    for record in lock.outputs:
        seen = observed[record.path]
        items = sorted({o.item for o in record.owners})
        if seen is None:
            for item in items:
                missing.setdefault(item, []).append(record.path)
        elif seen[0] != record.sha256:
            modified.append(
                {
                    "path": record.path,
                    "items": items,
                    "stored_hash": record.sha256,
                    "current_hash": seen[0],
                }
            )
        elif seen[2] != bool(record.mode & 0o100):
            modes.append(
                {"path": record.path, "items": items, "executable": not seen[2],
                 "current_executable": seen[2]}
            )  # fmt: skip
    stale, orphans = _source_checks(lock, anchor)
    return {
        "missing_outputs": [
            {"kind": k.split(":", 1)[0], "name": k.split(":", 1)[1], "missing_files": files}
            for k, files in sorted(missing.items())
        ],
        "modified_outputs": modified,
        "mode_drift": modes,
        "stale_hashes": stale,
        "orphan_entries": orphans,
    }


def _source_checks(
    lock: Lockfile, anchor: Path | None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    stale: list[dict[str, Any]] = []
    orphans: list[dict[str, Any]] = []
    catalogs: dict[str, Any] = {}
    for item in lock.items:
        try:
            spec = parse_label(item.source, anchor)
        except SourceError:
            orphans.append(_orphan(item, "unrecognised-source"))
            continue
        if spec.kind is not SourceKind.LOCAL:
            continue  # doctor never fetches; `update --dry-run` checks remote drift
        directory = _item_dir(spec, item, catalogs)
        if directory is None:
            reason = (
                "local-path-gone" if not Path(spec.location).exists() else "item-missing-in-source"
            )
            orphans.append(_orphan(item, reason))
            continue
        current = tree_hash(directory)
        if current != item.hash:
            stale.append(
                {
                    "kind": item.kind,
                    "name": item.name,
                    "source": item.source,
                    "stored_hash": item.hash,
                    "current_hash": current,
                }
            )
    return stale, orphans


def _orphan(item: ItemRecord, reason: str) -> dict[str, Any]:
    return {"kind": item.kind, "name": item.name, "source": item.source, "reason": reason}


def _item_dir(spec: SourceSpec, item: ItemRecord, catalogs: dict[str, Any]) -> Path | None:
    from upskill.lifecycle.catalog import load_catalog
    from upskill.sources.fetch import local_fetched

    if spec.label not in catalogs:
        try:
            catalogs[spec.label] = load_catalog(local_fetched(spec))
        except UpskillError:
            catalogs[spec.label] = None
    catalog = catalogs[spec.label]
    if catalog is None:
        return None
    found = catalog.items.get((item.kind, item.original_name))
    return None if found is None else Path(found.directory)
