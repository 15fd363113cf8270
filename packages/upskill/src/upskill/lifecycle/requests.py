"""What a bare or named `update` re-resolves, rebuilt from the lockfile.

Roots are the bundles and the directly installed items (those without
`required_by`); dependencies are recomputed by the resolver, so one that is
no longer required is removed. Aliases and pins (in the labels) carry over.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from upskill.errors import UpskillError
from upskill.lifecycle.resolve import Request
from upskill.sources.spec import SourceSpec, parse_label, recorded_spec_of
from upskill.state.lockfile import ItemRecord, Lockfile


@dataclass(frozen=True)
class UpdateScope:
    requests: tuple[Request, ...]
    managed: frozenset[str]  # lock item keys this update owns


def _closure(lock: Lockfile, roots: set[str]) -> set[str]:
    keys = set(roots)
    changed = True
    while changed:
        changed = False
        for item in lock.items:
            if item.key not in keys and any(r in keys for r in item.required_by):
                keys.add(item.key)
                changed = True
    return keys


def update_requests(
    lock: Lockfile, names: Sequence[str], anchor: Path | None = None
) -> UpdateScope:
    """`anchor`: the project root relative local labels are read against."""
    roots: list[ItemRecord]
    bundles = list(lock.bundles)
    if names:
        unknown = [
            n
            for n in names
            if not any(i.name == n for i in lock.items)
            and not any(b.name == n for b in lock.bundles)
        ]
        if unknown:
            raise UpskillError(f"not installed: {', '.join(unknown)}")
        roots = [i for i in lock.items if i.name in names]
        bundles = [b for b in bundles if b.name in names]
    else:
        roots = [i for i in lock.items if not i.required_by]
    bundle_items = {(b.source, n) for b in bundles for n in b.items}
    by_label: dict[str, tuple[list[str], dict[str, str]]] = {}
    for b in bundles:
        by_label.setdefault(b.source, ([], {}))[0].append(b.name)
    for item in roots:
        if not names and (item.source, item.original_name) in bundle_items:
            continue  # comes back through its bundle
        wanted, aliases = by_label.setdefault(item.source, ([], {}))
        wanted.append(item.original_name)
        if item.source_name:
            aliases[item.source_name] = item.name
    requests = []
    for label, (wanted, aliases) in by_label.items():
        spec = parse_label(label, anchor)
        if spec.bundle_path is not None:
            wanted = [w for w in wanted if w not in {b.name for b in bundles}]
        requests.append(
            Request(spec, tuple(dict.fromkeys(wanted)), aliases=aliases, missing_ok=True)
        )
    if names:
        managed = _closure(
            lock,
            {i.key for i in roots}
            | {
                f"{i.kind}:{i.name}"
                for i in lock.items
                for b in bundles
                if i.source == b.source and i.original_name in b.items
            },
        )
    else:
        managed = {i.key for i in lock.items}
    return UpdateScope(tuple(requests), frozenset(managed))


def carried_aliases(lock: Lockfile, spec: SourceSpec) -> dict[str, str]:
    """original name -> installed name, for the items installed from `spec`'s repository
    (any ref) under an alias: `add src@v2` after `add src@v1 style --as house` moves
    `house` to v2 rather than installing `style` beside it. An original also installed
    under its own name keeps its plain install (the alias then is not carried)."""
    mine = [i for i in lock.items if recorded_spec_of(i.source, spec) is not None]
    plain = {i.name for i in mine if i.source_name is None}
    carried: dict[str, str] = {}
    for item in mine:
        if item.source_name is not None and item.source_name not in plain:
            carried.setdefault(item.source_name, item.name)
    return carried
