"""Find items in a registry tree and extract what search matches against.

Scanning is `add`'s discovery with its per-item isolation: a registry with one
malformed item is still searchable, and that item is left out, as `add` leaves
it out, so no search result proposes a command that fails.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from pathlib import Path

from upskill.search.model import Entry

ENTRYPOINTS: tuple[tuple[str, str], ...] = (
    ("SKILL.md", "skill"),
    ("RULE.md", "rule"),
    ("AGENT.md", "agent"),
)
_FENCE = re.compile(r"^(```|~~~)")


def entry_files(root: Path) -> Iterator[tuple[Path, str]]:
    """Entrypoints in the item directories `add` discovers (`format.discover.source_layout`:
    its layouts and plugin manifests)."""
    from upskill.format.discover import source_layout

    for folder in source_layout(root).directories:
        for filename, kind in ENTRYPOINTS:
            path = folder / filename
            if path.is_file() and not path.is_symlink():
                yield path, kind


def fingerprint(root: Path) -> str:
    """A cheap "head" for a local registry: paths, sizes and mtimes of its entrypoints."""
    digest = hashlib.sha256()
    for path, _ in entry_files(root):
        stat = path.stat()
        rel = path.relative_to(root).as_posix()
        digest.update(f"{rel}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return "local-" + digest.hexdigest()[:16]


def first_paragraph(body: str) -> str:
    """The first prose paragraph: headings, fences and HTML comments skipped."""
    lines: list[str] = []
    in_fence = False
    in_comment = False
    for raw in body.splitlines():
        line = raw.strip()
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        if in_comment or line.startswith("<!--"):
            in_comment = "-->" not in line
            continue
        if not line or line.startswith("#"):
            if lines:
                break
            continue
        lines.append(line)
    return " ".join(lines)


def scan(root: Path) -> list[Entry]:
    """The items `add` would install from `root`: the same discovery and validation, so
    every command search prints works. Invalid items are left out, as `add` leaves them."""
    from upskill.format import discover

    catalog = discover(root, strict=False)
    return [
        Entry(
            name=item.name,
            kind=item.kind.value,
            description=" ".join(item.description.split()),
            paragraph=first_paragraph(item.body),
            path=item.directory.relative_to(root).as_posix(),
        )
        for item in catalog.items
    ]
