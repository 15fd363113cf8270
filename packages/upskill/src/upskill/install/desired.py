"""Render resolved items into the set of files that should exist (pure)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from upskill.clients import SELECTABLE_CLIENTS, family, render_target
from upskill.errors import RenderError
from upskill.install import catalog as cat
from upskill.install.hashing import sha256_bytes
from upskill.install.resolve import Resolved
from upskill.state.lockfile import Owner


@dataclass(frozen=True)
class DesiredFile:
    path: str
    data: bytes
    mode: int
    owners: tuple[Owner, ...]

    @property
    def sha256(self) -> str:
        return sha256_bytes(self.data)


@dataclass(frozen=True)
class Desired:
    files: dict[str, DesiredFile]
    item_clients: dict[str, tuple[str, ...]]  # item key -> selectable clients written
    skipped: tuple[str, ...]  # item keys warn-skipped by audience
    warnings: tuple[str, ...]


def clients_for(item_audience: tuple[str, ...] | None, selection: Sequence[str]) -> tuple[str, ...]:
    chosen = tuple(selection) or SELECTABLE_CLIENTS
    if item_audience is None:
        return chosen
    return tuple(c for c in chosen if family(c) in item_audience)


def safe_relative(path: str) -> bool:
    parts = path.split("/")
    return (
        bool(path)
        and not path.startswith("/")
        and "\\" not in path
        and all(p not in ("", ".", "..") for p in parts)
    )


def render_desired(
    items: Sequence[Resolved], selection_for: Callable[[Resolved], Sequence[str]]
) -> Desired:
    """`selection_for(item)` empty means every client."""
    from upskill.render import render_item

    files: dict[str, DesiredFile] = {}
    item_clients: dict[str, tuple[str, ...]] = {}
    skipped: list[str] = []
    warnings: list[str] = []
    for resolved in items:
        clients = clients_for(cat.audience(resolved.item), selection_for(resolved))
        if not clients:
            skipped.append(resolved.key)
            warnings.append(f"{resolved.key}: audience excludes every selected client; skipped")
            continue
        item_clients[resolved.key] = clients
        targets: dict[str, list[str]] = {}
        for client in clients:
            targets.setdefault(render_target(client), []).append(client)
        for target, owners_of in targets.items():
            rendering = render_item(resolved.item, target, alias=resolved.alias)
            warnings += [f"{resolved.key} ({target}): {w}" for w in rendering.warnings]
            for out in rendering.files:
                _add(
                    files,
                    out.path,
                    out.data,
                    out.mode,
                    tuple(Owner(resolved.key, c) for c in owners_of),
                )
    return Desired(files, item_clients, tuple(skipped), tuple(warnings))


def _add(
    files: dict[str, DesiredFile], path: str, data: bytes, mode: int, owners: tuple[Owner, ...]
) -> None:
    if not safe_relative(path):
        raise RenderError(f"renderer produced an unsafe output path {path!r}")
    current = files.get(path)
    if current is None:
        files[path] = DesiredFile(path, data, mode, owners)
        return
    if current.data != data:
        items = sorted({o.item for o in current.owners} | {o.item for o in owners})
        raise RenderError(
            f"{path}: {' and '.join(items)} would write different content to the same file"
        )
    files[path] = DesiredFile(path, data, mode, tuple(sorted(set(current.owners) | set(owners))))
