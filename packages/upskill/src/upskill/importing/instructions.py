"""Single instruction files (`CLAUDE.md`, `AGENTS.md`, `copilot-instructions.md`) as rules.

Each becomes one always-on rule, or with `split` one rule per top-level section (the
lowest heading level the file uses, outside code fences; text before the first such
heading is a rule of its own). Rules carry no H1 (format spec §5.1: clients derive it
from the name), so a body that uses `#` has every heading moved down one level. A file
that only imports another (`@AGENTS.md`, what upskill itself writes for Claude Code) is
left out: its content is imported from the file it names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from upskill.clients import BY_ID
from upskill.clients.base import Carrier
from upskill.format.model import Kind
from upskill.importing.model import FoundItem, Note, NoteKind
from upskill.importing.names import slug
from upskill.importing.read import read_text
from upskill.lifecycle.compiled import BEGIN, split_block
from upskill.render.compiled import parse_sections

_HEADING = re.compile(r"(#{1,6})([ \t]+.*?)?[ \t]*\Z")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


def _headings(lines: list[str]) -> Iterator[tuple[int, int, str]]:
    """(line index, level, text) of every ATX heading outside fenced code."""
    fence: str | None = None
    for index, line in enumerate(lines):
        opened = _FENCE.match(line)
        if fence is not None:
            if (
                opened is not None
                and opened.group(1)[0] == fence[0]
                and len(opened.group(1)) >= len(fence)
            ):
                fence = None
            continue
        if opened is not None:
            fence = opened.group(1)
            continue
        match = _HEADING.match(line.lstrip(" ")) if len(line) - len(line.lstrip(" ")) <= 3 else None
        if match is not None:
            text = (match.group(2) or "").strip().rstrip("#").strip()
            yield index, len(match.group(1)), text


def demote_h1(body: str) -> str:
    """`body` with every heading one level lower when it has an H1 (at most `######`)."""
    lines = body.split("\n")
    found = list(_headings(lines))
    if not any(level == 1 for _, level, _ in found):
        return body
    for index, level, _ in found:
        if level < 6:
            lines[index] = "#" + lines[index].lstrip(" ")
    return "\n".join(lines)


def _lift(body: str) -> str:
    """A section body whose headings start deeper than `##`, moved up so they start there."""
    lines = body.split("\n")
    found = list(_headings(lines))
    if not found:
        return body
    shift = min(level for _, level, _ in found) - 2
    if shift <= 0:
        return body
    for index, _, _ in found:
        stripped = lines[index].lstrip(" ")
        lines[index] = stripped[shift:]
    return "\n".join(lines)


def split_sections(body: str) -> list[tuple[str | None, str]]:
    """(heading text or None for the preamble, section body) at the top heading level."""
    lines = body.split("\n")
    found = list(_headings(lines))
    if not found:
        return [(None, body)]
    top = min(level for _, level, _ in found)
    cuts = [(index, text) for index, level, text in found if level == top]
    sections: list[tuple[str | None, str]] = []
    preamble = "\n".join(lines[: cuts[0][0]])
    if preamble.strip():
        sections.append((None, preamble))
    for number, (index, text) in enumerate(cuts):
        end = cuts[number + 1][0] if number + 1 < len(cuts) else len(lines)
        sections.append((text, _lift("\n".join(lines[index + 1 : end]).strip("\n") + "\n")))
    return sections


def base_name(rel: str) -> str:
    """`CLAUDE.md` -> `claude-md`, `.github/copilot-instructions.md` -> `copilot-instructions`."""
    stem = Path(rel).name.removesuffix(".md")
    return f"{slug(stem)}-md" if stem.isupper() else slug(stem)


def instruction_paths(clients: Iterable[str], *, home: bool) -> list[str]:
    paths: list[str] = []
    for client in clients:
        entry = BY_ID[client]
        for rel in entry.instructions_home if home else entry.instructions:
            if rel not in paths:
                paths.append(rel)
    return paths


def _compiling(rel: str, clients: Iterable[str], home: bool) -> tuple[str, ...]:
    """The selected clients upskill compiles rules into `rel` for: a section is their
    copy of the rule, and merges with the other clients' copies."""
    return tuple(
        client
        for client in clients
        if (where := BY_ID[client].kinds.get(Kind.RULE.value)) is not None
        and where.carrier is Carrier.COMPILED
        and where.serves(home)
        and where.at(home).template == rel
    )


def _compiled(text: str) -> tuple[dict[str, str], str]:
    """The rules upskill compiled into the file (the whole file, or its managed block),
    by name, and the team's own text around them."""
    data = text.encode("utf-8")
    sections = parse_sections(data)
    if sections is not None:
        return {n: b.decode("utf-8") for n, b in sections.items()}, ""
    block = split_block(data)
    if block is None:
        return {}, text
    inner = parse_sections(block.content) or {}
    head = block.head.decode("utf-8").removesuffix(BEGIN.decode() + "\n")
    tail = block.tail.decode("utf-8").split("\n", 1)[1] if "\n" in block.tail.decode() else ""
    return {n: b.decode("utf-8") for n, b in inner.items()}, head + tail


def scan_instructions(
    root: Path, clients: Iterable[str], *, home: bool, split: bool
) -> tuple[list[FoundItem], list[Note]]:
    clients = tuple(clients)
    items: list[FoundItem] = []
    notes: list[Note] = []
    known = instruction_paths(BY_ID, home=home)
    seen: dict[str, str] = {}  # text -> the file it was first read from
    for rel in instruction_paths(clients, home=home):
        path = root / rel
        if not path.is_file():
            continue
        text = read_text(path, None if home else root)
        if text is None or not text.strip():
            continue
        if text in seen:  # `CLAUDE.md -> AGENTS.md`, or a copy: one rule, not two
            notes.append(Note(NoteKind.SKIP, f"{rel}: same text as {seen[text]}; left out"))
            continue
        seen[text] = rel
        words = text.split()
        if all(w.startswith("@") and w[1:] in known for w in words):
            notes.append(Note(NoteKind.SKIP, f"{rel}: only imports {' '.join(words)}; left out"))
            continue
        compiled, text = _compiled(text)
        items += [
            FoundItem(
                kind=Kind.RULE,
                name=name,
                path=rel,
                owners=_compiling(rel, clients, home),
                fields={},
                body=body,
                description_hint=f"Always-on rule compiled into {rel} by upskill",
            )
            for name, body in compiled.items()
        ]
        if not text.strip():
            continue
        base = base_name(rel)
        sections = split_sections(text) if split else [(None, text)]
        for heading, body in sections:
            name = base if heading is None else slug(heading) or base
            what = f"{rel}" if heading is None else f"{rel}, section {heading!r}"
            items.append(
                FoundItem(
                    kind=Kind.RULE,
                    name=name,
                    path=rel,
                    owners=(),
                    fields={},
                    body=demote_h1(body),
                    description_hint=heading or f"Always-on instructions imported from {what}",
                )
            )
    return items, notes
