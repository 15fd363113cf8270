"""Assemble the compiled instructions files (`AGENTS.md`, `GEMINI.md`, …) of a run.

A compiled file depends on every always-on rule installed for its clients, not on
one item, so it is built after rendering: the sections this run rendered, plus the
sections of the other installed rules read back from the file itself
(`render.compiled.parse_sections`). Who may write the file:

- absent, recorded in the lockfile, or recognisably a compiled file: upskill owns
  it, and the planner's usual rules apply (a hand edit is kept and reported);
- the team's own file holding the lines `<!-- upskill:begin -->` and
  `<!-- upskill:end -->` once each: upskill manages what is between them and keeps
  every other byte; the block counts as intact while its content is exactly what
  upskill compiled, so the team may edit around it freely;
- any other team file: never written; its clients' rules are reported as not
  delivered (`lifecycle.desired.TEAM_FILE`).

A compiled file may have a front (`Placement.imported_by`): the instructions file the
client reads, which other clients read too (Gemini CLI's `GEMINI.md`, which Copilot
CLI reads). The rules then go to a file only that client reads, and the front holds
the one line `@<compiled file>` while that file holds rules. A front is owned the
same way: upskill's own (recorded, absent, or exactly that line), a team file with a
managed block (the line goes in the block), or the team's: then the compiled file
is not written either, and its rules are reported as not delivered.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from upskill.clients import CLIENTS
from upskill.clients.base import RULE, Carrier
from upskill.errors import RenderError
from upskill.lifecycle.desired import DesiredFile, Section
from upskill.lifecycle.hashing import sha256_bytes
from upskill.render.compiled import compile_document, parse_sections
from upskill.render.tables import GENERATED_FILE_MODE
from upskill.state.lockfile import OutputRecord, Owner

BEGIN = b"<!-- upskill:begin -->"
END = b"<!-- upskill:end -->"


def fronts(home: bool) -> dict[str, str]:
    """The fronts in the scope: the file importing a compiled file -> that file."""
    out: dict[str, str] = {}
    for client in CLIENTS:
        where = client.kinds.get(RULE)
        if where is not None and where.carrier is Carrier.COMPILED and where.serves(home):
            front = where.front(home)
            if front is not None:
                out[front] = where.at(home).template
    return out


def override_files(home: bool) -> dict[str, tuple[str, str]]:
    """Client id -> (its compiled file, the file it reads instead when present): the
    clients whose rules may move out of a file other clients read too (project scope:
    `Placement.override`, `lifecycle.override`)."""
    out: dict[str, tuple[str, str]] = {}
    for client in CLIENTS:
        where = client.kinds.get(RULE)
        if where is not None and where.carrier is Carrier.COMPILED and where.override and not home:
            out[client.id] = (where.project.template, where.override)
    return out


def alternative_files(home: bool) -> dict[str, tuple[str, str]]:
    """Client id -> (its compiled file, the file it reads besides it and no other client
    reads): where its rules go while the compiled file is a team's own (project scope:
    `Placement.alternative`, Crush's `CRUSH.md`)."""
    if home:
        return {}
    out: dict[str, tuple[str, str]] = {}
    for client in CLIENTS:
        where = client.kinds.get(RULE)
        if where is not None and where.carrier is Carrier.COMPILED and where.alternative:
            out[client.id] = (where.project.template, where.alternative)
    return out


def alternatives(current: Iterable[Current], home: bool) -> dict[str, str]:
    """Client id -> its alternative file, for the clients whose rules go there this run:
    the compiled file is the team's own without a managed block, and the alternative is
    not (a team's alternative with a managed block takes them in the block)."""
    owned = {c.path: c.owned for c in current}
    return {
        client: alternative
        for client, (compiled, alternative) in alternative_files(home).items()
        if owned.get(compiled) is Owned.TEAM and owned.get(alternative) is not Owned.TEAM
    }


def _holds(records: Mapping[str, OutputRecord], path: str, client: str) -> bool:
    """Whether the lockfile records a section of `client` in the compiled file `path`."""
    record = records.get(path)
    return record is not None and any(o.client == client for o in record.owners)


def recorded_in(
    records: Mapping[str, OutputRecord], files: Mapping[str, tuple[str, str]]
) -> dict[str, str]:
    """Client id -> its second file (`files`: `override_files` or `alternative_files`),
    where the lockfile has the client's rules there: the last run put them there."""
    return {c: second for c, (_, second) in files.items() if _holds(records, second, c)}


def recorded_alternatives(records: Mapping[str, OutputRecord]) -> dict[str, str]:
    """Client id -> its alternative file, where the lockfile has its rules there."""
    return recorded_in(records, alternative_files(False))


def misplaced(records: Mapping[str, OutputRecord], moved: Mapping[str, str]) -> bool:
    """Whether the lockfile has a section of a client with an alternative in the other of
    its two files than the one its rules go to this run (`moved`: `alternatives`): the
    run moves them, so it renders every item again. A client with no section recorded
    (not selected, or a team's own `AGENTS.md` it was never compiled into) moves none."""
    return any(
        path != moved.get(client, compiled) and _holds(records, path, client)
        for client, (compiled, alternative) in alternative_files(False).items()
        for path in (compiled, alternative)
    )


def compiled_paths(home: bool) -> tuple[str, ...]:
    """Every compiled file any client reads in the scope, every front, every override
    and every alternative, relative to its root."""
    paths = set(fronts(home)) | {o for _, o in override_files(home).values()}
    paths |= {a for _, a in alternative_files(home).values()}
    for client in CLIENTS:
        where = client.kinds.get(RULE)
        if where is not None and where.carrier is Carrier.COMPILED and where.serves(home):
            paths.add(where.at(home).template)
    return tuple(sorted(paths))


def import_line(target: str) -> bytes:
    """A front's content while `target` holds rules: the client's import of it."""
    return b"@" + target.encode() + b"\n"


class Owned(enum.Enum):
    OURS = "ours"
    BLOCK = "block"
    TEAM = "team"


@dataclass(frozen=True)
class Block:
    """A team file split around upskill's managed block: `head` ends with the begin
    line, `tail` starts with the end line."""

    head: bytes
    content: bytes
    tail: bytes


def split_block(data: bytes) -> Block | None:
    """The block, when the begin and end lines occur exactly once each, in order."""
    lines = data.splitlines(keepends=True)
    begins = [i for i, line in enumerate(lines) if line.rstrip(b"\r\n") == BEGIN]
    ends = [i for i, line in enumerate(lines) if line.rstrip(b"\r\n") == END]
    if len(begins) != 1 or len(ends) != 1 or begins[0] > ends[0]:
        return None
    b, e = begins[0], ends[0]
    if not lines[b].endswith(b"\n"):
        return None
    return Block(b"".join(lines[: b + 1]), b"".join(lines[b + 1 : e]), b"".join(lines[e:]))


@dataclass(frozen=True)
class Current:
    """A compiled path (or a front) before the run: its bytes and who owns it."""

    path: str
    disk: bytes | None
    owned: Owned
    block: Block | None = None
    imports: str | None = None  # a front: the compiled file it imports

    @staticmethod
    def of(
        path: str, disk: bytes | None, record: OutputRecord | None, imports: str | None = None
    ) -> Current:
        if disk is None:
            return Current(path, None, Owned.OURS, imports=imports)
        block = split_block(disk)
        if block is not None:
            return Current(path, disk, Owned.BLOCK, block, imports)
        ours = record is not None or parse_sections(disk) is not None
        if ours or (imports is not None and disk == import_line(imports)):
            return Current(path, disk, Owned.OURS, imports=imports)
        return Current(path, disk, Owned.TEAM, imports=imports)

    @property
    def text(self) -> bytes | None:
        """The compiled document upskill wrote last (the block's content in a team file)."""
        return self.block.content if self.block is not None else self.disk


def scan(
    home: bool, read: Callable[[str], bytes | None], records: Mapping[str, OutputRecord]
) -> list[Current]:
    """Every compiled path and front of the scope as it is now (`read`: its bytes)."""
    imports = fronts(home)
    found = [Current.of(p, read(p), records.get(p), imports.get(p)) for p in compiled_paths(home)]
    # An override is upskill's whole or not at all: a team's, managed block or not, hides
    # the compiled file from its client by the team's choice and is never written.
    moved_to = {o for _, o in override_files(home).values()}
    return [
        dataclasses.replace(c, owned=Owned.TEAM, block=None)
        if c.path in moved_to and c.owned is Owned.BLOCK
        else c
        for c in found
    ]


def writable(current: Iterable[Current]) -> frozenset[str]:
    """The paths upskill may write: not a team's own file, and for a compiled file with
    a front, a front that is not the team's either (its rules would never be read)."""
    current = tuple(current)
    team = {c.path for c in current if c.owned is Owned.TEAM}
    blocked = {c.imports for c in current if c.path in team and c.imports is not None}
    return frozenset(c.path for c in current if c.path not in team and c.path not in blocked)


@dataclass(frozen=True)
class Compiled:
    files: dict[str, DesiredFile]
    # Records standing in for the lock's: an intact block counts as upskill's last
    # write whatever the team changed around it, and a section moved to another file
    # is no longer the old file's.
    records: dict[str, OutputRecord]
    # Kept sections whose client's file this run is the team's own: not delivered.
    dropped: tuple[Owner, ...] = ()


@dataclass(frozen=True)
class _Moved:
    """Kept sections (of items this run does not render) whose client's compiled file
    changed since the last run (Codex between `AGENTS.md` and `AGENTS.override.md`,
    Crush between `AGENTS.md` and `CRUSH.md`)."""

    into: dict[str, list[tuple[Owner, bytes | None]]]  # path -> owners and their sections
    out_of: dict[str, set[Owner]]
    dropped: tuple[Owner, ...]


def _moved(
    current: tuple[Current, ...],
    records: Mapping[str, OutputRecord],
    stale: frozenset[str],
    moves: Mapping[str, str],
) -> _Moved:
    paths = {c.path for c in current}
    pairs = override_files(False) | alternative_files(False)
    table = {c: pair for c, pair in pairs.items() if pair[1] in paths}
    ours = {c.path for c in current if c.owned is not Owned.TEAM and c.imports is None}
    into: dict[str, list[tuple[Owner, bytes | None]]] = {}
    out_of: dict[str, set[Owner]] = {}
    dropped: list[Owner] = []
    for cur in current:
        record = records.get(cur.path)
        for o in record.owners if record is not None and cur.imports is None else ():
            if o.item in stale or o.client not in table or cur.path not in table[o.client]:
                continue
            home = moves.get(o.client, table[o.client][0])
            if cur.path == home:
                continue
            out_of.setdefault(cur.path, set()).add(o)
            old = parse_sections(cur.text) if cur.text else None
            if home in ours:
                name = o.item.split(":", 1)[1]
                into.setdefault(home, []).append((o, old.get(name) if old else None))
            else:
                dropped.append(o)
    return _Moved(into, out_of, tuple(dropped))


def assemble(
    current: Iterable[Current],
    sections: Iterable[Section],
    records: Mapping[str, OutputRecord],
    stale: frozenset[str],
    *,
    force: bool,
    moves: Mapping[str, str] | None = None,
) -> Compiled:
    """The desired compiled files and fronts. `stale`: item keys whose old sections must
    not be kept (re-rendered or dropped by this run); every other recorded owner keeps
    its section, read back from the file. `moves`: client -> the override its rules go
    to this run (`lifecycle.override`) or its alternative (`alternatives`); a kept
    section of such a client is read back from the file it was in and placed where the
    client reads it now."""
    current = tuple(current)
    moved = _moved(current, records, stale, moves or {})
    fresh: dict[str, dict[str, Section]] = {}
    for s in sections:
        fresh.setdefault(s.path, {})[s.name] = s
    # A front upskill compiled the rules into itself (before fronts existed): its
    # sections are the compiled file's old ones.
    legacy = {
        c.imports: (records[c.path], found)
        for c in current
        if c.imports is not None
        and c.path in records
        and c.text
        and (found := parse_sections(c.text)) is not None
    }
    files: dict[str, DesiredFile] = {}
    overrides: dict[str, OutputRecord] = {}
    for cur in current:
        if cur.owned is Owned.TEAM or cur.imports is not None:
            continue
        record = records.get(cur.path)
        gone = moved.out_of.get(cur.path, set())
        kept = tuple(
            o for o in (record.owners if record else ()) if o.item not in stale and o not in gone
        )
        own = parse_sections(cur.text) if cur.text else None
        old = own
        if cur.path in legacy:
            front, sections_before = legacy[cur.path]
            kept = tuple({*kept, *(o for o in front.owners if o.item not in stale)})
            old = sections_before | (own or {})
        parts = {name: s.data for name, s in fresh.get(cur.path, {}).items()}
        for owner, data in moved.into.get(cur.path, ()):
            name = owner.item.split(":", 1)[1]
            if data is None:
                raise RenderError(
                    f"cannot move rule {name!r}'s section to {cur.path}: the file it was "
                    "in was edited by hand; run `upskill update --force` to compile it anew"
                )
            parts.setdefault(name, data)
            kept = (*kept, owner)
        for name in sorted({o.item.split(":", 1)[1] for o in kept} - set(parts)):
            if old is not None and name in old:
                parts[name] = old[name]
            elif force or old is not None:
                raise RenderError(
                    f"{cur.path}: cannot rebuild rule {name!r}'s section: the file was "
                    "edited by hand; run `upskill update --force` to compile it anew"
                )
        owners = tuple(
            sorted({*kept, *(o for s in fresh.get(cur.path, {}).values() for o in s.owners)})
        )
        document = compile_document(parts) if parts else b""
        _place(cur, document, owners, own is not None, files, overrides)
    for cur in current:
        if cur.owned is Owned.TEAM or cur.imports is None:
            continue
        target = files.get(cur.imports)
        owners = target.owners if target is not None and target.size else ()
        line = import_line(cur.imports) if owners else b""
        intact = cur.block is not None and cur.block.content in (line, import_line(cur.imports))
        _place(cur, line, owners, intact, files, overrides)
    for path, gone in moved.out_of.items():
        base = overrides.get(path) or records[path]
        left = tuple(o for o in base.owners if o not in gone)
        overrides[path] = dataclasses.replace(base, owners=left)
    return Compiled(files, overrides, moved.dropped)


def _place(
    cur: Current,
    document: bytes,
    owners: tuple[Owner, ...],
    intact: bool,
    files: dict[str, DesiredFile],
    overrides: dict[str, OutputRecord],
) -> None:
    """The desired file for a compiled path or front holding `document`: the whole file,
    or the team file with the document in its block. `intact`: the block holds what
    upskill wrote last, so the file on disk counts as upskill's last write."""
    if cur.block is not None:
        # Always desired, unchanged or not: a team file is never planned for removal.
        data = cur.block.head + document + cur.block.tail
        if cur.disk is not None and (intact or not cur.block.content.strip()):
            digest = sha256_bytes(cur.disk)
            overrides[cur.path] = OutputRecord(cur.path, digest, len(cur.disk), owners)
        files[cur.path] = DesiredFile.of(cur.path, data, GENERATED_FILE_MODE, owners)
    elif document:
        files[cur.path] = DesiredFile.of(cur.path, document, GENERATED_FILE_MODE, owners)
