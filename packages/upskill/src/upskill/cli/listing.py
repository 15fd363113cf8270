"""The data `upskill list` shows, as JSON (stable shape) and as text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from upskill.sources.spec import SourceError, parse_label
from upskill.state.lockfile import ItemRecord, Lockfile


def _git_ref(label: str, ref: str | None) -> str | None:
    try:
        spec = parse_label(label)
    except SourceError:
        return ref
    return ref if spec.is_git else None


def _entry(item: ItemRecord) -> dict[str, Any]:
    return {
        "kind": item.kind,
        "name": item.name,
        "source": item.source,
        "git_ref": _git_ref(item.source, item.ref),
    }


def listing_json(lock: Lockfile) -> dict[str, Any]:
    lock = lock.normalised()
    out: dict[str, Any] = {}
    for kind in ("rule", "skill", "agent"):
        out[f"{kind}s"] = [_entry(i) for i in lock.items if i.kind == kind]
    out["bundles"] = [
        {
            "name": b.name,
            "source": b.source,
            "git_ref": _git_ref(b.source, b.ref),
            "items": list(b.items),
        }
        for b in lock.bundles
    ]
    return out


def listing_text(lock: Lockfile, path: Path) -> str:
    lock = lock.normalised()
    if not lock.items and not lock.bundles:
        return f"Nothing installed ({path}).\n"
    lines: list[str] = []
    for kind in ("rule", "skill", "agent"):
        items = [i for i in lock.items if i.kind == kind]
        if not items:
            continue
        lines.append(f"{kind.capitalize()}s:")
        for i in items:
            extra = []
            if i.source_name:
                extra.append(f"as {i.name}, from {i.source_name}")
            if i.clients:
                extra.append(", ".join(i.clients))
            if i.required_by:
                extra.append("required by " + ", ".join(i.required_by))
            suffix = f"  ({'; '.join(extra)})" if extra else ""
            lines.append(f"  {i.name}  {i.source}{suffix}")
    if lock.bundles:
        lines.append("Bundles:")
        for b in lock.bundles:
            lines.append(f"  {b.name}  {b.source}  [{', '.join(b.items)}]")
    return "\n".join(lines) + "\n"
