"""The pure planner: one action per path, and the rules that protect user edits."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from upskill.lifecycle.desired import DesiredFile
from upskill.lifecycle.plan import Op, plan_outputs
from upskill.state.lockfile import OutputRecord, Owner

A = Owner("rule:a", "claude")
B = Owner("rule:b", "claude")


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def want(path: str, data: bytes, *owners: Owner) -> DesiredFile:
    return DesiredFile.of(path, data, 0o644, owners or (A,))


def rec(path: str, data: bytes, *owners: Owner) -> OutputRecord:
    return OutputRecord(path, sha(data), len(data), owners or (A,))


def obs(data: bytes | None):
    return None if data is None else (sha(data), len(data), False)


def one(desired, records, disk, *, managed=frozenset({"rule:a"}), force=False, legacy=frozenset()):
    plan = plan_outputs(
        {d.path: d for d in desired},
        managed,
        {r.path: r for r in records},
        {p: obs(v) for p, v in disk.items()},
        legacy=legacy,
        force=force,
    )
    return [(a.op, a.path) for a in plan.actions], plan.outputs


def test_create_skip_update():
    assert one([want("f", b"new")], [], {"f": None})[0] == [(Op.CREATE, "f")]
    assert one([want("f", b"new")], [rec("f", b"old")], {"f": b"new"})[0] == [(Op.SKIP, "f")]
    ops, outputs = one([want("f", b"new")], [rec("f", b"old")], {"f": b"old"})
    assert ops == [(Op.UPDATE, "f")] and outputs[0].sha256 == sha(b"new")


def test_local_edit_kept_and_still_recorded_as_written():
    ops, outputs = one([want("f", b"new")], [rec("f", b"old")], {"f": b"mine"})
    assert ops == [(Op.KEEP_EDIT, "f")]
    assert outputs == (rec("f", b"old"),)  # still detectable next time


def test_force_replaces_local_edit():
    ops, outputs = one([want("f", b"new")], [rec("f", b"old")], {"f": b"mine"}, force=True)
    assert ops == [(Op.REPLACE_EDIT, "f")] and outputs[0].sha256 == sha(b"new")


def test_unmanaged_file_in_the_way_is_kept_unless_forced_or_legacy():
    ops, outputs = one([want("f", b"new")], [], {"f": b"theirs"})
    assert ops == [(Op.FOREIGN, "f")] and outputs == ()
    assert one([want("f", b"new")], [], {"f": b"theirs"}, force=True)[0] == [(Op.REPLACE_EDIT, "f")]
    legacy = one([want("f", b"new")], [], {"f": b"old"}, legacy=frozenset({"rule:a"}))
    assert legacy[0] == [(Op.UPDATE, "f")]


def test_no_longer_desired():
    assert one([], [rec("f", b"x")], {"f": b"x"})[0] == [(Op.REMOVE, "f")]
    assert one([], [rec("f", b"x")], {"f": None})[0] == [(Op.FORGET, "f")]
    ops, outputs = one([], [rec("f", b"x")], {"f": b"edited"})
    assert ops == [(Op.KEEP_ORPHAN, "f")] and outputs == ()
    assert one([], [rec("f", b"x")], {"f": b"edited"}, force=True)[0] == [(Op.REMOVE_EDIT, "f")]


def test_shared_output_removed_only_with_last_owner():
    shared = rec("f", b"x", A, B)
    ops, outputs = one([], [shared], {"f": b"x"})
    assert ops == [(Op.RETAIN, "f")]
    assert outputs == (OutputRecord("f", sha(b"x"), 1, (B,)),)
    assert one([], [shared], {"f": b"x"}, managed=frozenset({"rule:a", "rule:b"}))[0] == [
        (Op.REMOVE, "f")
    ]


def test_deselected_client_drops_only_that_owner():
    both = rec("f", b"x", Owner("rule:a", "copilot"), Owner("rule:a", "vscode"))
    ops, outputs = one([want("f", b"x", Owner("rule:a", "vscode"))], [both], {"f": b"x"})
    assert ops == [(Op.SKIP, "f")]
    assert outputs[0].owners == (Owner("rule:a", "vscode"),)


def test_unmanaged_records_untouched():
    other = rec("g", b"y", B)
    _, outputs = one([want("f", b"x")], [other], {"f": None})
    assert [o.path for o in outputs] == ["f", "g"]


contents = st.sampled_from([b"a", b"b", b"c", None])


@settings(max_examples=200)
@given(
    desired=st.dictionaries(st.sampled_from("pqrs"), st.sampled_from([b"a", b"b"]), max_size=4),
    recorded=st.dictionaries(st.sampled_from("pqrs"), st.sampled_from([b"a", b"c"]), max_size=4),
    disk=st.dictionaries(st.sampled_from("pqrs"), contents, max_size=4),
    force=st.booleans(),
)
def test_applying_a_plan_then_replanning_is_a_no_op(desired, recorded, disk, force):
    """Idempotence: after applying, the same inputs plan no writes or removals."""
    wants = {p: want(p, d) for p, d in desired.items()}
    records = {p: rec(p, d) for p, d in recorded.items()}
    observed = {p: obs(disk.get(p)) for p in set(desired) | set(recorded)}
    plan = plan_outputs(wants, frozenset({"rule:a"}), records, observed, force=force)
    state = {p: disk.get(p) for p in set(desired) | set(recorded)}
    for action in plan.actions:
        if action.op.writes:
            state[action.path] = action.data
        elif action.op.removes:
            state[action.path] = None
    again = plan_outputs(
        wants,
        frozenset({"rule:a"}),
        {o.path: o for o in plan.outputs},
        {p: obs(state.get(p)) for p in set(desired) | {o.path for o in plan.outputs}},
        force=force,
    )
    assert not again.changes
    assert again.outputs == plan.outputs
    # Never overwritten without force: a path whose disk bytes were neither ours nor desired.
    if not force:
        for action in plan.actions:
            before = disk.get(action.path)
            if action.op.writes and before is not None:
                assert action.path in records and sha(before) == records[action.path].sha256
