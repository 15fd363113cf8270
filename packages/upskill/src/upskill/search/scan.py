"""Find items in a registry tree and extract what search matches against.

Scanning is tolerant where lint is strict: a registry with one malformed item
is still searchable, so an unparsable frontmatter just leaves the description
empty (the item keeps its name and first paragraph).
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
MAX_DEPTH = 2  # items sit at <root>/<item> or <root>/<folder>/<item>
MAX_ENTRY_BYTES = 1024 * 1024
_FENCE = re.compile(r"^(```|~~~)")


def _dirs(root: Path) -> Iterator[Path]:
    """Candidate item dirs at depth 1..MAX_DEPTH (and the root), skipping hidden ones."""
    yield root
    level = [root]
    for _ in range(MAX_DEPTH):
        nxt: list[Path] = []
        for folder in level:
            try:
                children = sorted(p for p in folder.iterdir() if p.is_dir())
            except OSError:
                continue
            for child in children:
                if child.name.startswith(".") or child.is_symlink():
                    continue
                nxt.append(child)
                yield child
        level = nxt


def entry_files(root: Path) -> Iterator[tuple[Path, str]]:
    for folder in _dirs(root):
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


def _frontmatter(text: str, path: Path) -> tuple[dict[str, object], str]:
    from upskill.errors import UpskillError
    from upskill.format.frontmatter import split_frontmatter
    from upskill.format.yamlio import load_yaml

    try:
        doc = split_frontmatter(text, path)
    except UpskillError:
        return {}, text
    try:
        data = load_yaml(doc.yaml, path)
    except UpskillError:
        data = None
    return (data if isinstance(data, dict) else {}), doc.body


def read_entry(path: Path, kind: str, root: Path) -> Entry:
    try:
        with path.open("rb") as handle:
            text = handle.read(MAX_ENTRY_BYTES).decode("utf-8", errors="replace")
    except OSError:
        text = ""
    meta, body = _frontmatter(text, path)
    description = meta.get("description")
    folder = path.parent
    return Entry(
        name=folder.name if folder != root else root.name,
        kind=kind,
        description=" ".join(description.split()) if isinstance(description, str) else "",
        paragraph=first_paragraph(body),
        path=folder.relative_to(root).as_posix(),
    )


def scan(root: Path) -> list[Entry]:
    return [read_entry(path, kind, root) for path, kind in entry_files(root)]
