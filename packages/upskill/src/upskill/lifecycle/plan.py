"""Plan (pure): compare desired files, the lock's output records and the disk.

One action per path. The rules that protect users live here: a file whose
bytes differ from what upskill last wrote is a local edit and is kept unless
`force`; a file upskill never wrote is not replaced unless `force`; a shared
output is removed only when its last owner goes.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from upskill.blobs import Payload
from upskill.lifecycle.desired import DesiredFile
from upskill.state.lockfile import OutputRecord, Owner

Observation = tuple[str, int, bool] | None  # (sha256, size, executable) or absent


class Op(enum.Enum):
    CREATE = "create"
    UPDATE = "update"
    SKIP = "unchanged"
    KEEP_EDIT = "keep-local-edit"  # desired changed or not, the user's bytes stay
    REPLACE_EDIT = "replace-local-edit"  # --force discarded a local edit
    FOREIGN = "keep-unmanaged"  # a file upskill never wrote is in the way
    REMOVE = "remove"
    REMOVE_EDIT = "remove-local-edit"  # --force removed an edited, no-longer-desired file
    KEEP_ORPHAN = "keep-edited-orphan"  # not desired any more, edited: left in place
    FORGET = "forget"  # recorded but already gone
    RETAIN = "retain"  # still owned by someone outside this run

    @property
    def writes(self) -> bool:
        return self in (Op.CREATE, Op.UPDATE, Op.REPLACE_EDIT)

    @property
    def removes(self) -> bool:
        return self in (Op.REMOVE, Op.REMOVE_EDIT)


@dataclass(frozen=True)
class Action:
    op: Op
    path: str
    data: Payload | None = None
    mode: int = 0o644
    expected: str | None = None  # sha256 the disk must still have for a removal
    # A removal's: the items the record named, which the run's report counts as changed.
    owners: tuple[Owner, ...] = ()


@dataclass(frozen=True)
class Plan:
    actions: tuple[Action, ...]
    outputs: tuple[OutputRecord, ...]

    def count(self, *ops: Op) -> int:
        return sum(1 for a in self.actions if a.op in ops)

    @property
    def changes(self) -> tuple[Action, ...]:
        return tuple(a for a in self.actions if a.op.writes or a.op.removes)


def plan_outputs(
    desired: Mapping[str, DesiredFile],
    managed: frozenset[str],
    records: Mapping[str, OutputRecord],
    observed: Mapping[str, Observation],
    *,
    legacy: frozenset[str] = frozenset(),
    force: bool = False,
) -> Plan:
    """`managed`: item keys this run (re)writes or drops; other owners are untouched.
    `legacy`: managed item keys installed without output records (upstream lockfiles):
    their files are treated as upskill's own."""
    actions: list[Action] = []
    # A record left with no owner (its sections moved to another compiled file) is planned
    # like one this run manages: removed when nothing wants it.
    outputs: dict[str, OutputRecord] = {
        p: r
        for p, r in records.items()
        if r.owners and not any(o.item in managed for o in r.owners)
    }
    for path in sorted(set(desired) | {p for p in records if p not in outputs}):
        want = desired.get(path)
        record = records.get(path)
        disk = observed.get(path)
        others = tuple(o for o in record.owners if o.item not in managed) if record else ()
        if want is not None:
            action, sha = _desired_action(want, record, disk, legacy, force)
            actions.append(action)
            if sha is not None:
                size = want.size if sha == want.sha256 else (record.size if record else 0)
                mode = want.mode if sha == want.sha256 else (record.mode if record else 0o644)
                owners = _merge(others, want.owners)
                outputs[path] = OutputRecord(path, sha, size, owners, mode)
            continue
        assert record is not None
        if others:
            actions.append(Action(Op.RETAIN, path))
            outputs[path] = OutputRecord(path, record.sha256, record.size, others, record.mode)
        elif disk is None:
            actions.append(Action(Op.FORGET, path))
        elif disk[0] == record.sha256:
            actions.append(Action(Op.REMOVE, path, expected=record.sha256, owners=record.owners))
        elif force:
            actions.append(Action(Op.REMOVE_EDIT, path, expected=disk[0], owners=record.owners))
        else:
            actions.append(Action(Op.KEEP_ORPHAN, path))
    return Plan(tuple(actions), tuple(outputs[p] for p in sorted(outputs)))


def _desired_action(
    want: DesiredFile,
    record: OutputRecord | None,
    disk: Observation,
    legacy: frozenset[str],
    force: bool,
) -> tuple[Action, str | None]:
    """The action for a desired path and the sha256 to record (None: not ours)."""
    if want.data is None:  # reused: only ever planned when the disk holds these bytes
        if disk is None or disk[0] != want.sha256:
            raise ValueError(f"{want.path}: reused output does not match the disk")
        return Action(Op.SKIP, want.path), want.sha256
    write = Action(Op.CREATE, want.path, want.data, want.mode)
    if disk is None:
        return write, want.sha256
    if disk[0] == want.sha256 and disk[2] == bool(want.mode & 0o100):
        return Action(Op.SKIP, want.path), want.sha256
    if disk[0] == want.sha256 and record is None:  # same bytes, not ours: only the mode
        return Action(Op.UPDATE, want.path, want.data, want.mode), want.sha256
    if record is not None and disk[0] == record.sha256:
        if disk[2] != bool(record.mode & 0o100):
            # A changed executable bit is a local edit: kept, reported; --force restores it.
            if force:
                return Action(Op.REPLACE_EDIT, want.path, want.data, want.mode), want.sha256
            return Action(Op.KEEP_EDIT, want.path), record.sha256
        return Action(Op.UPDATE, want.path, want.data, want.mode), want.sha256
    if record is None and any(o.item in legacy for o in want.owners):
        return Action(Op.UPDATE, want.path, want.data, want.mode), want.sha256
    if force:
        return Action(Op.REPLACE_EDIT, want.path, want.data, want.mode), want.sha256
    if record is not None:
        # Keep recording what upskill last wrote, so the edit stays detectable.
        return Action(Op.KEEP_EDIT, want.path), record.sha256
    # The rendering travels with the action so the user can be shown how the file differs.
    return Action(Op.FOREIGN, want.path, want.data, want.mode), None


def _merge(a: tuple[Owner, ...], b: tuple[Owner, ...]) -> tuple[Owner, ...]:
    return tuple(sorted(set(a) | set(b)))
