"""Render resolved items into the set of files that should exist (pure)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from upskill.blobs import Payload, payload_digest, payload_size
from upskill.clients import BASELINE_CLIENTS, family, get, render_target
from upskill.errors import RenderError
from upskill.lifecycle import catalog as cat
from upskill.lifecycle.fsops import safe_relative
from upskill.lifecycle.resolve import Resolved
from upskill.state.lockfile import Owner

if TYPE_CHECKING:
    from upskill.render import Rendering


@dataclass(frozen=True)
class DesiredFile:
    """A file that should exist. `data` is None when it was not re-rendered because
    its item is unchanged and the disk still holds exactly the recorded bytes."""

    path: str
    data: Payload | None
    mode: int
    owners: tuple[Owner, ...]
    sha256: str
    size: int

    @staticmethod
    def of(path: str, data: Payload, mode: int, owners: tuple[Owner, ...]) -> DesiredFile:
        return DesiredFile(path, data, mode, owners, payload_digest(data), payload_size(data))


@dataclass(frozen=True)
class Desired:
    files: dict[str, DesiredFile]
    item_clients: dict[str, tuple[str, ...]]  # item key -> selectable clients written
    skipped: tuple[str, ...]  # item keys warn-skipped by audience
    warnings: tuple[str, ...]


def clients_for(item_audience: tuple[str, ...] | None, selection: Sequence[str]) -> tuple[str, ...]:
    chosen = tuple(selection) or BASELINE_CLIENTS
    if item_audience is None:
        return chosen
    return tuple(c for c in chosen if family(c) in item_audience)


def _deliverable(
    kind: str, clients: tuple[str, ...], missed: dict[tuple[str, str], int], home: bool
) -> tuple[str, ...]:
    """The clients with a native place for `kind` in the scope; the others are counted in
    `missed`."""
    out = []
    for client in clients:
        where = get(client).kinds.get(kind)
        if where is not None and where.serves(home):
            out.append(client)
        else:
            missed[(client, kind)] = missed.get((client, kind), 0) + 1
    return tuple(out)


def served_elsewhere(renderings: Mapping[str, Rendering]) -> dict[str, str]:
    """Targets that need no copy of their own: the client reads another target's tree,
    where the same item already lands byte for byte, and would otherwise list it twice
    (issue 15, item 3: Cursor reads `.claude/skills`). Maps each to the target whose copy
    serves it. A target whose own path another target also writes keeps it (that copy
    must exist anyway), and clients that deduplicate by name need nothing."""
    firsts = {t: r.files[0] for t, r in renderings.items() if r.files}
    paths: dict[str, int] = {}
    for first in firsts.values():
        paths[first.path] = paths.get(first.path, 0) + 1
    served: dict[str, str] = {}
    for target, own in firsts.items():
        client = get(target)
        if client.dedupes or paths[own.path] > 1 or target in served.values():
            continue
        for other, theirs in firsts.items():
            if other == target or other in served or theirs.path == own.path:
                continue
            reads = any(theirs.path.startswith(r) for r in client.reads if r.endswith("/"))
            if reads and theirs.data == own.data:
                served[target] = other
                break
    return served


def undelivered_lines(missed: Mapping[tuple[str, str], int]) -> list[str]:
    """One line per client and kind that selected items could not reach: never silent."""
    lines = []
    for (client, kind), count in sorted(missed.items()):
        what = kind if count == 1 else f"{kind}s"
        name = get(client).name
        lines.append(f"{client}: {count} {what} not delivered ({name} has no place for {kind}s)")
    return lines


def render_desired(
    items: Sequence[Resolved],
    selection_for: Callable[[Resolved], Sequence[str]],
    reused: Mapping[str, tuple[DesiredFile, ...]] | None = None,
    *,
    home: bool = False,
    on_item: Callable[[int, int], None] | None = None,
) -> Desired:
    """`selection_for(item)` empty means every client. Items in `reused` (by key) are not
    rendered: their recorded files stand in for the rendering. `home`: the global scope.
    `on_item(done, total)` after each item: the CLI's counter on a TTY."""
    from upskill.render import Site, render_item

    files: dict[str, DesiredFile] = {}
    item_clients: dict[str, tuple[str, ...]] = {}
    skipped: list[str] = []
    warnings: list[str] = []
    missed: dict[tuple[str, str], int] = {}
    for done, resolved in enumerate(items, 1):
        if on_item is not None:
            on_item(done, len(items))
        admitted = clients_for(cat.audience(resolved.item), selection_for(resolved))
        if reused is not None and resolved.key in reused:
            kind = resolved.item.kind.value
            item_clients[resolved.key] = _deliverable(kind, admitted, missed, home)
            for kept in reused[resolved.key]:
                _merge(files, kept)
            continue
        if not admitted:
            skipped.append(resolved.key)
            warnings.append(f"{resolved.key}: audience excludes every selected client; skipped")
            continue
        clients = _deliverable(resolved.item.kind.value, admitted, missed, home)
        if not clients:
            continue
        item_clients[resolved.key] = clients
        targets: dict[str, list[str]] = {}
        for client in clients:
            targets.setdefault(render_target(client), []).append(client)
        site = Site(home, frozenset(targets))
        renderings = {
            target: render_item(resolved.item, target, alias=resolved.alias, site=site)
            for target in targets
        }
        served = {} if home else served_elsewhere(renderings)
        for target in targets:
            rendering = renderings[target]
            warnings += [f"{resolved.key} ({target}): {w}" for w in rendering.warnings]
            if target in served:
                continue  # it reads another client's identical copy: written once
            readers = [t for t, via in served.items() if via == target]
            written_for = [c for t in (target, *readers) for c in targets[t]]
            for out in rendering.files:
                if not safe_relative(out.path):
                    raise RenderError(f"renderer produced an unsafe output path {out.path!r}")
                owners = tuple(Owner(resolved.key, c) for c in written_for)
                _merge(files, DesiredFile.of(out.path, out.data, out.mode, owners))
    warnings += undelivered_lines(missed)
    return Desired(files, item_clients, tuple(skipped), tuple(warnings))


def _merge(files: dict[str, DesiredFile], new: DesiredFile) -> None:
    current = files.get(new.path)
    if current is None:
        files[new.path] = new
        return
    if current.sha256 != new.sha256:
        items = sorted({o.item for o in current.owners} | {o.item for o in new.owners})
        raise RenderError(
            f"{new.path}: {' and '.join(items)} would write different content to the same file"
        )
    owners = tuple(sorted(set(current.owners) | set(new.owners)))
    kept = current if current.data is not None else new  # prefer the one with bytes
    files[new.path] = dataclasses.replace(kept, owners=owners)
