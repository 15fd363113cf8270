"""Files outside the per-item trees that clients need (reference notes §5).

Project scope: `CLAUDE.md` (created once with `@AGENTS.md`, only when `AGENTS.md`
exists), `opencode.json` (`instructions` must include the rule glob) and
`.vscode/settings.json` (the Copilot instructions folder registered for VS Code,
only while VS Code is selected and holds a rule there, and Claude's agents tree it
skips while that hides only copies: `lifecycle.agenttrees`; a member no longer
needed is taken back, the team's file given back byte for byte, or removed when
upskill created it: `lifecycle.edits`, which this module's `put_members`,
`take_members` and `setting_value` serve). Global scope:
opencode's user config `~/.config/opencode/opencode.json`, one `instructions` entry
per rule, because opencode matches an absolute instruction's glob in its last path
component only (`~/.agents/rules/**/RULE.md` finds nothing). Entries follow what the
lockfile says is installed before and after a run, so narrowing or removing drops
the entries of rules that are gone. Each updater is pure: current bytes in, new
bytes out (or None when nothing must change). Which client needs which file, and
what goes in it, is the client's `registration` in the registry; this module is
the mechanism.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from upskill import jsonc
from upskill.clients import CLIENTS, render_target
from upskill.errors import UpskillError
from upskill.format.model import Kind
from upskill.fsio import read_contained
from upskill.lifecycle.edits import ABSENT, Edit, Member
from upskill.lifecycle.extrafiles import Entry, ExtraFile, ExtraOp
from upskill.lifecycle.hashing import sha256_bytes
from upskill.render.tables import Site, layout
from upskill.state.lockfile import Lockfile

AGENTS_MD = "AGENTS.md"
Updater = Callable[[bytes | None], bytes | None]
# The clients' registrations (`clients.base.Registration`), by the files they name.
IMPORTERS = {c.id: r.imports_agents_md for c in CLIENTS if (r := c.registration).imports_agents_md}
RULE_LISTS = {c.id: c.registration for c in CLIENTS if c.registration.rule_list}
SETTINGS = {c.id: c.registration for c in CLIENTS if c.registration.settings}
ANCILLARY_FILES: tuple[str, ...] = tuple(
    sorted(
        {
            *IMPORTERS.values(),
            *(r.rule_list for r in RULE_LISTS.values() if r.rule_list),
            *(r.rule_list_home for r in RULE_LISTS.values() if r.rule_list_home),
            *(r.settings for r in SETTINGS.values() if r.settings),
        }
    )
)


class AncillaryError(UpskillError):
    """An ancillary file has a shape upskill cannot safely extend."""


def agents_md_import(current: bytes | None) -> bytes | None:
    """A memory file holding only `@AGENTS.md`, created once and never edited."""
    return b"@AGENTS.md\n" if current is None else None


def _dump(value: Any) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode()


def _text(current: bytes, path: str) -> tuple[str, bytes]:
    bom = b"\xef\xbb\xbf" if current.startswith(b"\xef\xbb\xbf") else b""
    try:
        return current[len(bom) :].decode("utf-8"), bom
    except UnicodeDecodeError as exc:
        raise AncillaryError(f"cannot update: not UTF-8 ({exc.reason})", path=path) from None


def _load(current: bytes, path: str) -> tuple[dict[str, Any], str, bytes]:
    """(value, text, BOM): every edit is textual (`jsonc`), for strict JSON too, so the
    user's numbers (`1e5`), duplicate keys, layout, comments and BOM stay as they were."""
    text, bom = _text(current, path)
    try:
        value = jsonc.loads(text)
    except jsonc.JsoncError as exc:
        raise AncillaryError(f"cannot update: invalid JSON: {exc}", path=path) from None
    if type(value) is not dict:
        raise AncillaryError("cannot update: the top level is not a JSON object", path=path)
    return value, text, bom


def instructions_list(
    path: str, add: Sequence[str], drop: Sequence[str] = ()
) -> Callable[[bytes | None], bytes | None]:
    """An updater making `instructions` hold every entry of `add` and none of `drop`."""

    def update(current: bytes | None) -> bytes | None:
        if current is None:
            return _dump({"instructions": list(add)}) if add else None
        value, text, bom = _load(current, path)
        instructions = value.get("instructions")
        if instructions is not None and type(instructions) is not list:
            raise AncillaryError("cannot update: `instructions` is not an array", path=path)
        present = list(instructions or ())
        new = text
        for entry in drop:
            if entry in present:
                new = jsonc.remove_item(new, ("instructions",), entry)
                present.remove(entry)
        for entry in add:
            if entry not in present:
                new = jsonc.append_item(new, ("instructions",), entry)
                present.append(entry)
        return None if new == text else bom + new.encode()

    return update


def settings_flag(path: str, key: str, member: str) -> Updater:
    """An updater making the JSON object `key` map `member` to true (kept when present)."""
    return settings_member(path, key, member, True)


def settings_member(path: str, key: str, member: str, value: bool) -> Updater:
    """An updater making the JSON object `key` map `member` to `value`; a member already
    there is the team's and kept, whatever its value (None: nothing to change)."""

    def update(current: bytes | None) -> bytes | None:
        if current is None:
            return _dump({key: {member: value}})
        if setting_value(current, path, key, member) is not ABSENT:
            return None
        text, bom = _text(current, path)
        return bom + jsonc.set_member(text, (key, member), value).encode()

    return update


def setting_value(current: bytes, path: str, key: str, member: str) -> object:
    """The value `key` maps `member` to in a settings file (`edits.ABSENT`: no such
    member); a `key` that is not an object is an error naming the file."""
    locations = _load(current, path)[0].get(key, {})
    if type(locations) is not dict:
        raise AncillaryError(f"cannot update: `{key}` is not an object", path=path)
    return locations.get(member, ABSENT)


def put_members(path: str) -> Edit:
    """`edits.settle`'s `put`: add members in order (an absent file is created)."""

    def put(members: tuple[Member, ...]) -> Updater:
        def update(current: bytes | None) -> bytes | None:
            for key, member, value in members:
                current = settings_member(path, key, member, value)(current) or current
            return current

        return update

    return put


def take_members(path: str) -> Edit:
    """`edits.settle`'s `take`: cut members as text (None: none of them is there)."""

    def take(members: tuple[Member, ...]) -> Updater:
        def update(current: bytes | None) -> bytes | None:
            out = current
            for key, member, _ in members:
                out = settings_cut(path, key, member)(out) or out
            return None if out == current else out

        return update

    return take


@dataclass(frozen=True)
class Installed:
    """What a lockfile says upskill installed in a scope, as the ancillary files see it."""

    targets: frozenset[str]  # render targets holding any item
    rule_targets: frozenset[str]  # render targets holding a rule
    rule_clients: frozenset[str]  # selectable clients holding a rule in their own tree
    # (client, rule entrypoint) for clients whose user config lists each rule
    listed_rules: tuple[tuple[str, str], ...]


def installed(lock: Lockfile, *, home: bool) -> Installed:
    targets: set[str] = set()
    rule_targets: set[str] = set()
    rule_clients: set[str] = set()
    rules = [i.name for i in lock.items if i.kind == Kind.RULE.value]
    entrypoints = {
        layout(Kind.RULE, client, Site(home)).entrypoint(name): client
        for client in RULE_LISTS
        for name in rules
    }
    listed: set[tuple[str, str]] = set()
    for output in lock.outputs:
        for owner in output.owners:
            target = render_target(owner.client)
            targets.add(target)
            if owner.item.startswith("rule:") and _in_rule_tree(output.path, target, home):
                rule_targets.add(target)
                rule_clients.add(owner.client)
                if entrypoints.get(output.path) == target:
                    listed.add((target, output.path))
    return Installed(
        frozenset(targets), frozenset(rule_targets), frozenset(rule_clients), tuple(sorted(listed))
    )


def _in_rule_tree(path: str, target: str, home: bool) -> bool:
    """Whether `path` is in the target's own rule tree: a client served by a compiled
    `AGENTS.md` owns its section there, but has no rules of its own to register."""
    try:
        return path.startswith(layout(Kind.RULE, target, Site(home)).tree)
    except KeyError:  # no place for rules
        return False


@dataclass(frozen=True)
class Rewrite:
    """How a run changes one ancillary file, and the entries that change can set or
    take back there (what `changed` reports)."""

    update: Updater
    entries: tuple[Entry, ...] = ()


def _listed(path: str, add: Sequence[str], drop: Sequence[str] = ()) -> Rewrite:
    entries = tuple(Entry("instructions", None, e) for e in (*add, *drop))
    return Rewrite(instructions_list(path, add, drop), entries)


def ancillary_updaters(
    before: Installed, after: Installed, *, home: bool, agents_md: bool = False
) -> dict[str, Rewrite]:
    """Which ancillary files a run touches, given what was installed before and after it
    and whether the scope has an `AGENTS.md`: `CLAUDE.md`'s `@AGENTS.md` is written only
    when it resolves (Claude Code and Copilot inject an unresolved reference as literal
    text). Nothing a run did not change is rewritten. The files and what goes in them
    are the clients' registrations (`clients.base.Registration`)."""
    out: dict[str, Rewrite] = {}
    if home:
        for client, reg in RULE_LISTS.items():
            if reg.rule_list_home is None:
                continue
            now = [p for c, p in after.listed_rules if c == client]
            entries = [f"~/{p}" for p in now]
            gone = [f"~/{p}" for c, p in before.listed_rules if c == client and p not in now]
            if entries or gone:
                path = reg.rule_list_home
                out[path] = _listed(path, entries, gone)
        return out
    for client, memory in IMPORTERS.items():
        if client in after.targets and agents_md:
            out[memory] = Rewrite(agents_md_import)
    for client, reg in RULE_LISTS.items():
        assert reg.rule_list is not None
        if client in after.rule_targets:
            out[reg.rule_list] = _listed(reg.rule_list, (reg.rule_glob,))
        elif client in before.rule_targets:
            out[reg.rule_list] = _listed(reg.rule_list, (), (reg.rule_glob,))
    return out


def registered(after: Installed, *, home: bool) -> dict[str, tuple[Member, ...]]:
    """The settings members a client's registration needs after a run, by file: VS Code's
    instructions folder while VS Code holds a rule in its own tree (project scope). The
    engine settles each file with these and any other member upskill adds there
    (`edits.settle`), so a member no longer needed is taken back."""
    out: dict[str, tuple[Member, ...]] = {}
    if home:
        return out
    for client, reg in SETTINGS.items():
        if client in after.rule_clients and reg.settings is not None:
            out[reg.settings] = (*out.get(reg.settings, ()), (*reg.settings_key, True))
    return out


def member_entry(member: Member) -> Entry:
    key, name, value = member
    return Entry(key, name, value)


def changed(
    path: str, before: bytes | None, after: bytes | None, entries: Sequence[Entry]
) -> ExtraFile:
    """The record of a run taking an ancillary file from `before` to `after` (None:
    absent): which of `entries` (those the run may set or take back there) it holds
    after and did not before, and the reverse. Read from the bytes themselves, so the
    report says what the write does, whichever edit produced it."""
    had, has = _present(path, before, entries), _present(path, after, entries)
    added = tuple(e for e in entries if e in has and e not in had)
    taken = tuple(e for e in entries if e in had and e not in has)
    if after is None:
        assert before is not None  # a removal removes a file
        return ExtraFile(path, ExtraOp.REMOVE, None, sha256_bytes(before), added, taken)
    op = ExtraOp.CREATE if before is None else ExtraOp.UPDATE
    return ExtraFile(path, op, after, "", added, taken)


def _present(path: str, data: bytes | None, entries: Sequence[Entry]) -> frozenset[Entry]:
    if data is None or not entries:
        return frozenset()
    value = _load(data, path)[0]
    found = set()
    for entry in entries:
        held = value.get(entry.key)
        if entry.member is None:
            here = type(held) is list and entry.value in held
        else:
            here = type(held) is dict and entry.member in held
        if here:
            found.add(entry)
    return frozenset(found)


def legacy_members(path: str) -> tuple[Member, ...]:
    """The members a record written before records listed them added: the
    registration of the client whose settings file it is."""
    return tuple((*r.settings_key, True) for r in SETTINGS.values() if r.settings == path)


def settings_cut(path: str, key: str, member: str) -> Updater:
    """An updater removing `member` from the JSON object `key` (None: not there)."""

    def update(current: bytes | None) -> bytes | None:
        if current is None:
            return None
        value, text, bom = _load(current, path)
        locations = value.get(key)
        if type(locations) is not dict or member not in locations:
            return None
        return bom + jsonc.delete_member(text, (key, member)).encode()

    return update


def read_optional(path: Path, root: Path) -> bytes | None:
    """A file in the scope `root` upskill edits or replaces, if it exists: a regular file
    inside the scope, never a FIFO or a symlink to a secret (`fsio.read_contained`)."""
    return read_contained(path, within=root)
