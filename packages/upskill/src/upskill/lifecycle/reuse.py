"""Skip re-rendering items that cannot have changed (update after a one-item edit).

An item's recorded outputs stand in for its rendering when all of these hold:
the lockfile was written by this upskill version (`generator`), the item comes
from the same source with the same content hash, alias and clients, the lock
records exactly as many output paths as the item rendered last time (`files`,
so a path that was kept because a foreign file was in the way is re-checked),
and every recorded output is on disk with the recorded bytes. Anything else is
rendered again; `--force` always renders.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from upskill import __version__
from upskill.lifecycle.desired import DesiredFile
from upskill.lifecycle.plan import Observation
from upskill.lifecycle.resolve import Resolved
from upskill.state.lockfile import Lockfile, OutputRecord

GENERATOR = f"upskill {__version__}"


def reusable_outputs(
    items: Sequence[Resolved],
    lock: Lockfile,
    *,
    hashes: Mapping[str, str | None],
    clients_of: Callable[[Resolved], tuple[str, ...]],
    observed: Mapping[str, Observation],
) -> dict[str, tuple[DesiredFile, ...]]:
    if lock.generator != GENERATOR:
        return {}
    by_item: dict[str, list[OutputRecord]] = {}
    for output in lock.outputs:
        for item in {o.item for o in output.owners}:
            by_item.setdefault(item, []).append(output)
    reused: dict[str, tuple[DesiredFile, ...]] = {}
    for r in items:
        record = lock.item(r.kind, r.name)
        outputs = by_item.get(r.key, [])
        clients = clients_of(r)
        if (
            record is None
            or record.source != r.catalog.label
            or record.hash is None
            or record.hash != hashes.get(r.key)
            or record.source_name != (r.original if r.alias else None)
            or {*(record.clients or clients), *record.unplaced} != set(clients)
            or record.files != len(outputs)
            or not outputs
        ):
            continue
        owners = {o.client for out in outputs for o in out.owners if o.item == r.key}
        if owners != set(clients) - set(record.unplaced):
            continue
        if any(_changed(observed.get(out.path), out) for out in outputs):
            continue
        reused[r.key] = tuple(
            DesiredFile(
                out.path,
                None,
                out.mode,
                tuple(o for o in out.owners if o.item == r.key),
                out.sha256,
                out.size,
            )
            for out in outputs
        )
    return reused


def _changed(seen: Observation, record: OutputRecord) -> bool:
    return seen is None or seen[0] != record.sha256 or seen[2] != bool(record.mode & 0o100)
