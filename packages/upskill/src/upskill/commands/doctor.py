"""`upskill doctor [--json]`: drift between the lockfile and the disk (exit 1 on drift)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from upskill.cli.cliargs import scope_flags

if TYPE_CHECKING:
    from upskill.cli.console import Console
    from upskill.lifecycle.extraneeds import Missing
    from upskill.world import World


def configure(parser: argparse.ArgumentParser) -> None:
    scope_flags(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable output")


_TITLES = {
    "interrupted_runs": "Journals (pending: the next add, update or remove completes the run; "
    "foreign: inside the project, never replayed, delete it)",
    "missing_outputs": "Missing outputs (reinstall: upskill update)",
    "modified_outputs": "Edited outputs (kept by update; upskill update --force replaces them)",
    "mode_drift": "Executable bit changed (kept by update; upskill update --force restores it)",
    "stale_hashes": "Source changed since install (upskill update)",
    "orphan_entries": "Entries without a source (upskill remove)",
    "missing_plugins": "Missing plugins (upskill update)",
    "skipped_plugins": "Skipped plugins (informational)",
    "mcp_entries": "MCP servers",
    "hidden_agents": "Agents a setting upskill made hides from a client (upskill update "
    "takes the setting back)",
    "hidden_instructions": "Instructions a client no longer reads, hidden by upskill's "
    "override (upskill update moves its rules back)",
    "missing_extra_entries": "Entries missing from the files clients read upskill's "
    "items through (upskill update writes them back)",
    "duplicate_reads": "Read twice by one client (informational: remove a copy, or narrow "
    "the clients)",
    "varying_reads": "Copies that differ, one shown, not always the same (informational: keep "
    "one copy, or make the copies identical)",
}


def run(args: argparse.Namespace, console: Console, world: World) -> int:
    import json

    from upskill.lifecycle.agenttrees import hidden_team_files
    from upskill.lifecycle.ancillary import read_optional
    from upskill.lifecycle.doctor import Report, check, run_state
    from upskill.lifecycle.duplicates import duplicates, varying
    from upskill.lifecycle.extensions import run_doctor
    from upskill.lifecycle.extraneeds import missing
    from upskill.lifecycle.flow import hook_context
    from upskill.lifecycle.override import hidden
    from upskill.lifecycle.scope import ScopeKind, resolve_scope
    from upskill.lifecycle.selection import in_use
    from upskill.lifecycle.session import Session

    scope = resolve_scope(world, project=args.project, global_=args.global_)
    session = Session(world, scope)
    lock = session.read_lock()
    buckets = check(scope.root, lock, scope.anchor)
    buckets["interrupted_runs"] = run_state(scope)
    buckets.update(run_doctor(hook_context(session, lock, (), True)))
    clients = in_use(lock)
    home = scope.kind is ScopeKind.GLOBAL

    def read(path: str) -> bytes | None:
        return read_optional(scope.root / path, scope.root)

    lacking = missing(scope.root, lock, home=home, read=read)
    buckets["missing_extra_entries"] = [_missing_json(m) for m in lacking]
    buckets["varying_reads"] = varying(scope.root, clients, home)
    if scope.kind is ScopeKind.PROJECT:
        buckets["duplicate_reads"] = duplicates(scope.root, clients)
        buckets["hidden_agents"] = hidden_team_files(scope.root, lock, read)
        buckets["hidden_instructions"] = hidden(scope.root, lock)
    report = Report(buckets)
    if args.json:
        console.json(json.dumps(buckets, indent=2) + "\n")
        return 0 if report.clean else 1
    for key, title in _TITLES.items():
        entries = buckets.get(key) or []
        if entries:
            console.data(f"{title}:\n")
            console.data("".join(f"  {_describe(key, e)}\n" for e in entries))
    console.info("No drift." if report.clean else f"{report.problems} problem(s) found.")
    return 0 if report.clean else 1


def _describe(bucket: str, entry: dict[str, object]) -> str:
    if bucket == "interrupted_runs":
        return f"{entry['status']}: {entry['path']}"
    if bucket == "missing_outputs":
        return f"{entry['kind']} {entry['name']}: {', '.join(entry['missing_files'])}"  # type: ignore[arg-type]
    if bucket == "modified_outputs":
        return f"{entry['path']} ({', '.join(entry['items'])})"  # type: ignore[arg-type]
    if bucket == "mode_drift":
        now = "executable" if entry["current_executable"] else "not executable"
        return f"{entry['path']} ({', '.join(entry['items'])}): now {now}"  # type: ignore[arg-type]
    if bucket in ("stale_hashes",):
        return f"{entry['kind']} {entry['name']} from {entry['source']}"
    if bucket == "hidden_agents":
        return f"{entry['client']}: {entry['path']} (by {entry['settings']})"
    if bucket == "duplicate_reads":
        return f"{entry['client']}: {entry['kind']} {entry['name']} in {', '.join(entry['trees'])}"  # type: ignore[arg-type]
    if bucket == "varying_reads":
        trees: list[str] = entry["trees"]  # type: ignore[assignment]
        which = "either copy" if len(trees) == 2 else f"any of the {len(trees)} copies"
        where = ", ".join(trees)
        return f"{entry['client']}: {entry['kind']} {entry['name']} in {where} (may show {which})"
    if bucket == "hidden_instructions":
        return f"{entry['client']}: {entry['path']} is hidden by {entry['hidden_by']}"
    if bucket == "missing_extra_entries":
        return _missing_text(entry)
    if bucket == "orphan_entries":
        return f"{entry['kind']} {entry['name']} from {entry['source']}: {entry['reason']}"
    return ", ".join(f"{k}={v}" for k, v in entry.items())


def _missing_json(found: Missing) -> dict[str, object]:
    """`{path, reason, entries[, detail]}`, the entries as a run's `--json` shows them."""
    from upskill.cli.runjson import entry_json

    out: dict[str, object] = {
        "path": found.path,
        "reason": found.reason,
        "entries": [entry_json(e) for e in found.entries],
    }
    if found.detail:
        out["detail"] = found.detail
    return out


def _missing_text(entry: dict[str, Any]) -> str:
    """`opencode.json: lacks "instructions": [...]`, the entries as a run's report
    shows them; a file written whole (`CLAUDE.md`) names its lines, and since upskill
    never edits it, how to have it written again."""
    from upskill.cli.runjson import json_entry
    from upskill.cli.ui import file_entries_text
    from upskill.lifecycle.ancillary import shape
    from upskill.lifecycle.extraneeds import FILE_MISSING, UNREADABLE

    path = entry["path"]
    found = [json_entry(e) for e in entry["entries"]]
    whole = not shape(path).reported
    lines = " and ".join(f"the line {e.value}" for e in found)
    what = lines if whole else file_entries_text(path, found)
    if entry["reason"] == FILE_MISSING:
        return f"{path}: missing, needs {what}"
    if entry["reason"] == UNREADABLE:
        return f"{path}: {entry['detail']} (needs {what})"
    if whole:
        return (
            f"{path}: lacks {what} (upskill never edits it: add it, or delete the file "
            "for upskill update to write it again)"
        )
    return f"{path}: lacks {what}"
