"""Files outside the per-item trees that clients need (reference notes §5).

Project scope: `CLAUDE.md` (created with `@AGENTS.md`, only when `AGENTS.md` exists,
never written into a team's file), `opencode.json` (`instructions` must include the
rule glob) and `.vscode/settings.json` (the Copilot instructions folder registered for
VS Code, only while VS Code is selected and holds a rule there, and Claude's agents
tree it skips while that hides only copies: `lifecycle.agenttrees`). Global scope:
opencode's user config `~/.config/opencode/opencode.json`, one `instructions` entry
per rule, because opencode matches an absolute instruction's glob in its last path
component only (`~/.agents/rules/**/RULE.md` finds nothing); and Codex's user config
`~/.codex/config.toml`, one `[[skills.config]]` entry per skill copy Codex must not list
(`Registration.skill_switch`, `lifecycle.skillswitch`).

Every one of them is one mechanism: `wanted` says which members a file must hold
after a run (from what the lockfile says is installed), `shape` how to put, cut and
read them in that file, and `lifecycle.edits.settle` takes the file there from the
team's own bytes, recording in the lockfile what upskill added (or that it created the
file). So a member no longer needed is taken back, the team's file given back byte
for byte, and a file upskill created is removed with its last member unless it was
edited since. Which client needs which file, and what goes in it, is the client's
`registration` in the registry; this module is the mechanism.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from upskill import jsonc
from upskill.clients import CLIENTS, get, render_target
from upskill.errors import UpskillError
from upskill.format.model import Kind
from upskill.format.names import name_problem
from upskill.fsio import read_contained
from upskill.lifecycle import skillswitch
from upskill.lifecycle.edits import ABSENT, Edit, Member, never_bare, only_empty
from upskill.lifecycle.extrafiles import Entry, ExtraFile, ExtraOp
from upskill.lifecycle.hashing import sha256_bytes
from upskill.render.tables import Site, layout
from upskill.state.lockfile import Lockfile

AGENTS_MD = "AGENTS.md"
# The member of a memory file upskill creates: its one line, importing `AGENTS.md`.
IMPORT: Member = ("lines", None, "@" + AGENTS_MD)
Updater = Callable[[bytes | None], bytes | None]
# The clients' registrations (`clients.base.Registration`), by the files they name.
IMPORTERS = {c.id: r.imports_agents_md for c in CLIENTS if (r := c.registration).imports_agents_md}
RULE_LISTS = {c.id: c.registration for c in CLIENTS if c.registration.rule_list}
SETTINGS = {c.id: c.registration for c in CLIENTS if c.registration.settings}
SWITCHES = {c.id: c.registration for c in CLIENTS if c.registration.skill_switch}
ANCILLARY_FILES: tuple[str, ...] = tuple(
    sorted(
        {
            *IMPORTERS.values(),
            *(r.rule_list for r in RULE_LISTS.values() if r.rule_list),
            *(r.rule_list_home for r in RULE_LISTS.values() if r.rule_list_home),
            *(r.settings for r in SETTINGS.values() if r.settings),
            *(r.skill_switch for r in SWITCHES.values() if r.skill_switch),
        }
    )
)


class AncillaryError(UpskillError):
    """An ancillary file has a shape upskill cannot safely extend."""


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


def list_items(path: str, key: str, add: Sequence[object], drop: Sequence[object] = ()) -> Updater:
    """An updater making the array `key` hold every item of `add` and none of `drop`
    (None: nothing to change)."""

    def update(current: bytes | None) -> bytes | None:
        if current is None:
            return _dump({key: list(add)}) if add else None
        text, bom = _text(current, path)
        present = list(_array(current, path, key))
        new = text
        for entry in drop:
            if entry in present:
                new = jsonc.remove_item(new, (key,), entry)
                present.remove(entry)
        for entry in add:
            if entry not in present:
                new = jsonc.append_item(new, (key,), entry)
                present.append(entry)
        return None if new == text else bom + new.encode()

    return update


def _array(current: bytes, path: str, key: str) -> list[object]:
    items = _load(current, path)[0].get(key)
    if items is not None and type(items) is not list:
        raise AncillaryError(f"cannot update: `{key}` is not an array", path=path)
    return items or []


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


def _one(path: str, member: Member, *, cut: bool) -> Updater:
    key, name, value = member
    if name is None:
        return list_items(path, key, () if cut else (value,), (value,) if cut else ())
    if cut:
        return settings_cut(path, key, name)
    assert type(value) is bool  # an object member upskill sets is a flag
    return settings_member(path, key, name, value)


def put_members(path: str) -> Edit:
    """`edits.settle`'s `put`: add members in order (an absent file is created)."""

    def put(members: tuple[Member, ...]) -> Updater:
        def update(current: bytes | None) -> bytes | None:
            for member in members:
                current = _one(path, member, cut=False)(current) or current
            return current

        return update

    return put


def take_members(path: str) -> Edit:
    """`edits.settle`'s `take`: cut members as text (None: none of them is there)."""

    def take(members: tuple[Member, ...]) -> Updater:
        def update(current: bytes | None) -> bytes | None:
            out = current
            for member in members:
                out = _one(path, member, cut=True)(out) or out
            return None if out == current else out

        return update

    return take


def member_value(path: str) -> Callable[[bytes, Member], object]:
    """`edits.settle`'s `value`: an object member's value, or an array item itself when
    the array holds it (`ABSENT`: not there)."""

    def value(data: bytes, member: Member) -> object:
        key, name, item = member
        if name is None:
            return item if item in _array(data, path, key) else ABSENT
        return setting_value(data, path, key, name)

    return value


def holds_nothing(data: bytes) -> bool:
    """Whether a JSON file upskill created holds nothing but empty containers once its
    members are cut: no value of the team's, and no comment (strict JSON), so removing
    it loses nothing."""
    try:
        value = json.loads(data.decode("utf-8-sig"))
    except ValueError:
        return False
    return only_empty(value)


@dataclass(frozen=True)
class Shape:
    """How `edits.settle` edits one file: JSON members, entries of a TOML array of tables
    (`lifecycle.skillswitch`), or a file written whole (a memory file: created holding
    its members' lines, never edited after, so a member there cannot be cut and an
    edited file is kept). `reported`: whether the run's report names the members (a
    file written whole is named alone); `entry` what the report says of one."""

    put: Edit
    take: Edit
    value: Callable[[bytes, Member], object]
    bare: Callable[[bytes], bool]
    reported: bool
    entry: Callable[[Member], Entry]


def _written_whole(members: tuple[Member, ...]) -> Updater:
    def update(current: bytes | None) -> bytes | None:
        if current is not None:
            return current
        return "".join(f"{m[2]}\n" for m in members).encode() if members else None

    return update


def _no_cut(members: tuple[Member, ...]) -> Updater:
    return lambda current: None


def _line(data: bytes, member: Member) -> object:
    return member[2] if str(member[2]).encode() in data.split() else ABSENT


def _switch_entry(member: Member) -> Entry:
    return Entry(member[0], None, skillswitch.entry(str(member[2])))


def shape(path: str) -> Shape:
    if path in IMPORTERS.values():
        return Shape(_written_whole, _no_cut, _line, never_bare, False, member_entry)
    if any(path == r.skill_switch for r in SWITCHES.values()):
        switch = skillswitch.put(path), skillswitch.take(path), skillswitch.value(path)
        return Shape(*switch, skillswitch.bare, True, _switch_entry)
    put, take, value = put_members(path), take_members(path), member_value(path)
    return Shape(put, take, value, holds_nothing, True, member_entry)


def can_add(path: str, member: Member, *, home: bool) -> bool:
    """Whether upskill ever adds `member` to the file at `path` (besides the agent trees
    `lifecycle.agenttrees` hides) in a scope (`home`: the user's): a lockfile is data a
    repository carries, and must not name a team member to cut."""
    if path in IMPORTERS.values():
        return member == IMPORT
    for client, reg in SWITCHES.items():
        if path == reg.skill_switch:
            return home and _switch_member(client, member)
    if member in legacy_members(path):
        return True
    key, name, item = member
    if key != "instructions" or name is not None or type(item) is not str:
        return False
    for client, reg in RULE_LISTS.items():
        if path == reg.rule_list and item == reg.rule_glob:
            return True
        if path == reg.rule_list_home and item.startswith("~/"):
            rule = item.rstrip("/").split("/")[-2:-1]
            site = layout(Kind.RULE, client, Site(True))
            if rule and item == f"~/{site.entrypoint(rule[0])}":
                return True
    return False


def _switch_member(client: str, member: Member) -> bool:
    """A member turning off a copy of one skill, in a tree the client reads at user
    level (`~/<tree><name>/SKILL.md`, the name a valid skill name)."""
    key, name, item = member
    reg = SWITCHES[client]
    if key != ".".join(reg.skill_switch_key) or name is not None or type(item) is not str:
        return False
    for tree in get(client).skill_trees_at(True):
        head, tail = f"~/{tree}", "/SKILL.md"
        skill = item[len(head) : -len(tail)]
        if item.startswith(head) and item.endswith(tail) and not name_problem(skill, skill=True):
            return True
    return False


@dataclass(frozen=True)
class Installed:
    """What a lockfile says upskill installed in a scope, as the ancillary files see it."""

    targets: frozenset[str]  # render targets holding any item
    rule_targets: frozenset[str]  # render targets holding a rule
    rule_clients: frozenset[str]  # selectable clients holding a rule in their own tree
    # (client, rule entrypoint) for clients whose user config lists each rule
    listed_rules: tuple[tuple[str, str], ...]
    # (client, skill entrypoint) for a copy of another client's rendering in a tree the
    # client reads beside its own copy, which it must not show (`Registration.skill_switch`)
    switched: tuple[tuple[str, str], ...] = ()


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
        frozenset(targets),
        frozenset(rule_targets),
        frozenset(rule_clients),
        tuple(sorted(listed)),
        _switched(lock) if home else (),
    )


def _switched(lock: Lockfile) -> tuple[tuple[str, str], ...]:
    """For each client with a skill switch, the skill copies at user level it reads but
    does not own while it owns another copy of that skill: the skill planner put its own
    rendering in a tree only it reads (`lifecycle.skillplace`), and it must not also list
    the other clients' rendering."""
    owners = {o.path: {w.client for w in o.owners} for o in lock.outputs}
    skills = [i.name for i in lock.items if i.kind == Kind.SKILL.value]
    out: set[tuple[str, str]] = set()
    for client in SWITCHES:
        reads = get(client).skill_trees_at(True)
        for name in skills:
            copies = {t: owners[p] for t in reads if (p := f"{t}{name}/SKILL.md") in owners}
            if any(client in held for held in copies.values()):
                off = (t for t, held in copies.items() if client not in held)
                out.update((client, f"{t}{name}/SKILL.md") for t in off)
    return tuple(sorted(out))


def _in_rule_tree(path: str, target: str, home: bool) -> bool:
    """Whether `path` is in the target's own rule tree: a client served by a compiled
    `AGENTS.md` owns its section there, but has no rules of its own to register."""
    try:
        return path.startswith(layout(Kind.RULE, target, Site(home)).tree)
    except KeyError:  # no place for rules
        return False


def wanted(after: Installed, *, home: bool, imports: bool = False) -> dict[str, tuple[Member, ...]]:
    """The members each file must hold after a run, given what is installed then and
    whether a memory file may import `AGENTS.md` (`imports`: it exists and is not compiled
    by upskill; Claude Code and Copilot inject an unresolved reference as literal text).
    The engine settles each file with these and any other member upskill adds there
    (`edits.settle`), so a member no longer wanted is taken back. The files and what goes
    in them are the clients' registrations (`clients.base.Registration`)."""
    out: dict[str, tuple[Member, ...]] = {}

    def want(path: str, *members: Member) -> None:
        out[path] = (*out.get(path, ()), *members)

    if home:
        for client, reg in RULE_LISTS.items():
            listed = [
                ("instructions", None, f"~/{p}") for c, p in after.listed_rules if c == client
            ]
            if reg.rule_list_home is not None and listed:
                want(reg.rule_list_home, *listed)
        for client, reg in SWITCHES.items():
            key = ".".join(reg.skill_switch_key)
            off = [(key, None, f"~/{p}") for c, p in after.switched if c == client]
            if reg.skill_switch is not None and off:
                want(reg.skill_switch, *off)
        return out
    for client, memory in IMPORTERS.items():
        if client in after.targets and imports:
            want(memory, IMPORT)
    for client, reg in RULE_LISTS.items():
        if client in after.rule_targets and reg.rule_list is not None:
            want(reg.rule_list, ("instructions", None, reg.rule_glob))
    for client, reg in SETTINGS.items():
        if client in after.rule_clients and reg.settings is not None:
            want(reg.settings, (*reg.settings_key, True))
    return out


def unrecorded(before: Installed, *, home: bool) -> dict[str, tuple[Member, ...]]:
    """The rule list entries upskill added, by file, as a lockfile from before upskill
    recorded its edits there says (the engine asks only for files it has no record
    of). Such a file is treated as it always was: the entries of rules that go are
    taken back, and the file is kept."""
    lists = {p for r in RULE_LISTS.values() for p in (r.rule_list, r.rule_list_home)}
    return {p: m for p, m in wanted(before, home=home).items() if p in lists}


def member_entry(member: Member) -> Entry:
    key, name, value = member
    return Entry(key, name, value)


def changed(
    path: str, before: bytes | None, after: bytes | None, members: Sequence[Member], form: Shape
) -> ExtraFile:
    """The record of a run taking an ancillary file from `before` to `after` (None:
    absent): which of `members` (those the run may set or take back there) it holds
    after and did not before, and the reverse, read through the file's `form`
    (`shape(path)`). Read from the bytes themselves, so the report says what the write
    does, whichever edit produced it."""

    def present(data: bytes | None) -> frozenset[Member]:
        if data is None:
            return frozenset()
        return frozenset(m for m in members if form.value(data, m) is not ABSENT)

    had, has = present(before), present(after)
    added = tuple(form.entry(m) for m in members if m in has and m not in had)
    taken = tuple(form.entry(m) for m in members if m in had and m not in has)
    if after is None:
        assert before is not None  # a removal removes a file
        return ExtraFile(path, ExtraOp.REMOVE, None, sha256_bytes(before), added, taken)
    op = ExtraOp.CREATE if before is None else ExtraOp.UPDATE
    return ExtraFile(path, op, after, "", added, taken)


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
