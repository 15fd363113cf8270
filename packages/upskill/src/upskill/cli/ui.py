"""What the lifecycle commands print: plan listings, kept edits and summary lines.

Formatting only; the lines go out through the `Console` (`upskill.cli.console`).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from upskill.cli.console import Console
from upskill.lifecycle.extrafiles import Entry, ExtraFile, ExtraOp
from upskill.lifecycle.plan import Action, Op, Plan

if TYPE_CHECKING:
    from upskill.lifecycle.engine import Outcome
    from upskill.lifecycle.flow import Committed
    from upskill.state.lockfile import Lockfile

# Actions a plan listing shows (unchanged, forget and retain change nothing on disk).
_SHOWN = frozenset(
    {
        Op.CREATE,
        Op.UPDATE,
        Op.REPLACE_EDIT,
        Op.KEEP_EDIT,
        Op.FOREIGN,
        Op.REMOVE,
        Op.REMOVE_EDIT,
        Op.KEEP_ORPHAN,
    }
)


def plan_lines(plan: Plan, diffs: Mapping[str, Sequence[str]] | None = None) -> list[str]:
    lines = []
    for a in plan.actions:
        if a.op in _SHOWN:
            lines.append(f"  {a.op.value:<18} {a.path}")
            lines.extend(f"    {line}" for line in (diffs or {}).get(a.path, ()))
    return lines


def entries_text(entries: Iterable[Entry]) -> str:
    """Entries as the JSON they are in the file, one fragment per key in first-seen order:
    `"key": {"member": value, …}` for object members, `"key": [item, …]` for array items."""
    grouped: dict[tuple[str, bool], list[str]] = {}
    for e in entries:
        value = json.dumps(e.value)
        part = value if e.member is None else f"{json.dumps(e.member)}: {value}"
        grouped.setdefault((e.key, e.member is None), []).append(part)
    return ", ".join(
        f"{json.dumps(key)}: [{', '.join(parts)}]"
        if listed
        else f"{json.dumps(key)}: {{{', '.join(parts)}}}"
        for (key, listed), parts in grouped.items()
    )


def toml_entries_text(entries: Iterable[Entry]) -> str:
    """Entries of a TOML array of tables as they are in the file, one inline table each:
    `[[skills.config]] {path = "…", enabled = false}`."""

    def table(value: object) -> str:
        assert type(value) is dict  # the entry an array of tables holds
        return ", ".join(f"{k} = {json.dumps(v)}" for k, v in value.items())

    return ", ".join(f"[[{e.key}]] {{{table(e.value)}}}" for e in entries)


def file_entries_text(path: str, entries: Iterable[Entry]) -> str:
    """Entries in the syntax of the file at `path` (TOML or JSON)."""
    return toml_entries_text(entries) if path.endswith(".toml") else entries_text(entries)


def extra_text(extra: ExtraFile, *, taken: str) -> str:
    """`path: set A, B; <taken> C`: what a change to an extra file sets and takes back
    (`taken`: "took back" once done, "take back" in a plan), in the file's own syntax;
    the path alone for a file written whole."""
    parts = []
    for verb, entries in (("set", extra.added), (taken, extra.taken)):
        if entries:
            parts.append(f"{verb} {file_entries_text(extra.path, entries)}")
    return f"{extra.path}: {'; '.join(parts)}" if parts else extra.path


def extra_plan_lines(extras: Iterable[ExtraFile]) -> list[str]:
    """The extra files in a plan listing, one line each, as `plan_lines` shows outputs."""
    return [f"  {x.op.value:<18} {extra_text(x, taken='take back')}" for x in extras]


_DONE = {ExtraOp.CREATE: "created", ExtraOp.UPDATE: "updated", ExtraOp.REMOVE: "removed"}


def extra_lines(extras: Iterable[ExtraFile]) -> list[str]:
    """One line per extra file a run changed: `updated .vscode/settings.json: set …`; an
    edited file upskill created and no longer needs is kept, as an edited output is."""
    return [
        f"kept edited file that is no longer installed: {x.path}"
        if x.op is ExtraOp.KEEP
        else f"{_DONE[x.op]} {extra_text(x, taken='took back')}"
        for x in extras
    ]


def extra_changes(extras: Iterable[ExtraFile]) -> int:
    """How many extra files a run writes or removes (a kept one is no change)."""
    return sum(x.op is not ExtraOp.KEEP for x in extras)


def noteworthy(
    actions: Iterable[Action], diffs: Mapping[str, Sequence[str]] | None = None
) -> list[str]:
    """Lines a user must see even without --dry-run: kept edits, kept files upskill never
    wrote (with their diff to upskill's rendering) and what --force discarded."""
    lines = []
    for a in actions:
        if a.op is Op.KEEP_EDIT:
            lines.append(f"kept local edit: {a.path} (use --force to replace it)")
        elif a.op is Op.FOREIGN:
            lines.append(
                f"kept existing file not written by upskill: {a.path} (use --force to replace it)"
            )
            lines.extend(f"  {line}" for line in (diffs or {}).get(a.path, ()))
        elif a.op is Op.KEEP_ORPHAN:
            lines.append(f"kept edited file that is no longer installed: {a.path}")
        elif a.op in (Op.REPLACE_EDIT, Op.REMOVE_EDIT):
            lines.append(f"discarded local edit: {a.path}")
    return lines


def repin_lines(outcome: Outcome, verb: str) -> list[str]:
    """One line per source that `add <source>@<ref>` moves to another ref, naming the
    installed items it moves: `re-pinned OLD -> NEW: a, b`."""
    moved: dict[tuple[str, str], list[str]] = {}
    for repin in outcome.repinned:
        moved.setdefault((repin.before, repin.after), []).append(repin.item.split(":", 1)[1])
    return [f"{verb} {b} -> {a}: {', '.join(names)}" for (b, a), names in moved.items()]


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def tail(plan: Plan, extras: Iterable[ExtraFile] = ()) -> str:
    parts = []
    kept = plan.count(Op.KEEP_EDIT, Op.KEEP_ORPHAN) + sum(x.op is ExtraOp.KEEP for x in extras)
    if kept:
        parts.append(f"{kept} kept local edit{'' if kept == 1 else 's'}")
    foreign = plan.count(Op.FOREIGN)
    if foreign:
        parts.append(f"{plural(foreign, 'unmanaged file')} kept")
    discarded = plan.count(Op.REPLACE_EDIT, Op.REMOVE_EDIT)
    if discarded:
        parts.append(f"{discarded} local edit{'' if discarded == 1 else 's'} discarded")
    return "".join(f"; {p}" for p in parts)


def report_dry_run(console: Console, outcome: Outcome) -> int:
    console.done()
    for warning in outcome.warnings:
        console.warn(warning)
    for line in repin_lines(outcome, "would re-pin"):
        console.info(line)
    lines = plan_lines(outcome.plan, outcome.diffs) + extra_plan_lines(outcome.extras)
    console.data("".join(f"{line}\n" for line in lines) or "nothing to do\n")
    return 0


_PART_WORDS = {"installed": "", "skipped": " skipped", "instructions": " to install by hand"}


def client_lines(outcome: Outcome, lock: Lockfile, bundles: Collection[str]) -> list[str]:
    """Per client, what this run's items and its bundles' MCP servers and plugins actually
    did there (`runjson.per_client`); empty when the run configured no MCP server or
    plugin (the headline says it all then)."""
    from upskill.cli.runjson import per_client

    clients = per_client(outcome, lock, bundles)
    if not any(c["mcp"] or c["plugins"] for c in clients.values()):
        return []
    lines = []
    for client, done in clients.items():
        parts = [plural(done["items"], "item")] if done["items"] else []
        for label, key in (("MCP", "mcp"), ("plugin", "plugins")):
            parts += [f"{label} {p['name']}{_PART_WORDS[p['status']]}" for p in done[key]]
        lines.append(f"  {client}: {', '.join(parts)}")
    return lines


def report_install(
    console: Console,
    outcome: Outcome,
    committed: Committed,
    bundles: Collection[str] = (),
    *,
    verb: str,
) -> int:
    console.done()
    for warning in outcome.warnings:
        console.warn(warning)
    for line in [
        *noteworthy(outcome.plan.actions, outcome.diffs),
        *extra_lines(outcome.extras),
        *committed.messages,
    ]:
        console.info(line)
    per_client = client_lines(outcome, committed.lock, bundles)
    if per_client:
        console.info(
            f"{plural(len(outcome.items), 'item')} {verb}{tail(outcome.plan, outcome.extras)}:"
        )
        for line in per_client:
            console.info(line)
        return 0
    clients = ", ".join(outcome.clients) or "no client"
    kept = tail(outcome.plan, outcome.extras)
    console.info(f"{plural(len(outcome.items), 'item')} {verb} for {clients}{kept}")
    return 0


def report_update(
    console: Console, outcome: Outcome, committed: Committed, bundles: Collection[str] = ()
) -> int:
    console.done()
    for warning in outcome.warnings:
        console.warn(warning)
    for line in [
        *repin_lines(outcome, "re-pinned"),
        *noteworthy(outcome.plan.actions, outcome.diffs),
        *extra_lines(outcome.extras),
        *committed.messages,
    ]:
        console.info(line)
    owners = {record.path: record.owners for record in outcome.plan.outputs}
    changed_items = {
        owner.item
        for action in outcome.plan.changes
        for owner in owners.get(action.path, action.owners)
    }
    removed = len(outcome.removed)
    changes = len(outcome.plan.changes) + extra_changes(outcome.extras)
    if not changes and not removed:
        console.info(f"Already up to date{tail(outcome.plan, outcome.extras)}.")
        return 0
    parts = [f"{plural(len(changed_items), 'item')} updated ({plural(changes, 'file')} changed)"]
    if removed:
        parts.append(f"{removed} removed")
    console.info(", ".join(parts) + tail(outcome.plan, outcome.extras))
    for line in client_lines(outcome, committed.lock, bundles):
        console.info(line)
    return 0
