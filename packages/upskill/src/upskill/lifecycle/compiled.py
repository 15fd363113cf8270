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
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from upskill.clients import CLIENTS
from upskill.clients.base import RULE, Carrier
from upskill.errors import RenderError
from upskill.lifecycle.desired import DesiredFile, Section
from upskill.render.compiled import compile_document, parse_sections
from upskill.render.tables import GENERATED_FILE_MODE
from upskill.state.lockfile import OutputRecord

BEGIN = b"<!-- upskill:begin -->"
END = b"<!-- upskill:end -->"


def compiled_paths(home: bool) -> tuple[str, ...]:
    """Every compiled file any client reads in the scope, relative to its root."""
    paths = set()
    for client in CLIENTS:
        where = client.kinds.get(RULE)
        if where is not None and where.carrier is Carrier.COMPILED and where.serves(home):
            paths.add(where.at(home).template)
    return tuple(sorted(paths))


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
    """A compiled path before the run: its bytes and who owns it."""

    path: str
    disk: bytes | None
    owned: Owned
    block: Block | None = None

    @staticmethod
    def of(path: str, disk: bytes | None, record: OutputRecord | None) -> Current:
        if disk is None:
            return Current(path, None, Owned.OURS)
        block = split_block(disk)
        if block is not None:
            return Current(path, disk, Owned.BLOCK, block)
        if record is not None or parse_sections(disk) is not None:
            return Current(path, disk, Owned.OURS)
        return Current(path, disk, Owned.TEAM)

    @property
    def text(self) -> bytes | None:
        """The compiled document upskill wrote last (the block's content in a team file)."""
        return self.block.content if self.block is not None else self.disk


def writable(current: Iterable[Current]) -> frozenset[str]:
    return frozenset(c.path for c in current if c.owned is not Owned.TEAM)


@dataclass(frozen=True)
class Compiled:
    files: dict[str, DesiredFile]
    # Records standing in for the lock's: an intact block counts as upskill's last
    # write whatever the team changed around it.
    records: dict[str, OutputRecord]


def assemble(
    current: Iterable[Current],
    sections: Iterable[Section],
    records: Mapping[str, OutputRecord],
    stale: frozenset[str],
    *,
    force: bool,
) -> Compiled:
    """The desired compiled files. `stale`: item keys whose old sections must not be
    kept (re-rendered or dropped by this run); every other recorded owner keeps its
    section, read back from the file."""
    fresh: dict[str, dict[str, Section]] = {}
    for s in sections:
        fresh.setdefault(s.path, {})[s.name] = s
    files: dict[str, DesiredFile] = {}
    overrides: dict[str, OutputRecord] = {}
    for cur in current:
        if cur.owned is Owned.TEAM:
            continue
        record = records.get(cur.path)
        kept = tuple(o for o in (record.owners if record else ()) if o.item not in stale)
        old = parse_sections(cur.text) if cur.text else None
        parts = {name: s.data for name, s in fresh.get(cur.path, {}).items()}
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
        if cur.block is not None:
            # Always desired, unchanged or not: a team file is never planned for removal.
            data = cur.block.head + document + cur.block.tail
            if cur.disk is not None and (old is not None or not cur.block.content.strip()):
                digest = hashlib.sha256(cur.disk).hexdigest()
                overrides[cur.path] = OutputRecord(cur.path, digest, len(cur.disk), owners)
            files[cur.path] = DesiredFile.of(cur.path, data, GENERATED_FILE_MODE, owners)
        elif parts:
            files[cur.path] = DesiredFile.of(cur.path, document, GENERATED_FILE_MODE, owners)
    return Compiled(files, overrides)
