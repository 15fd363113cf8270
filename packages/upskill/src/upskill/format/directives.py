"""Conditional content directives (format spec §6).

    <!-- @client:claude,copilot -->   ...   <!-- @endclient -->
    <!-- @client:!opencode -->        ...   <!-- @endclient -->

Markers must sit on their own line. Lines inside fenced code blocks are
content, never markers, so documentation can show the syntax.

Processing changes nothing but the removed lines: the body reaches the client
as its author wrote it (docs/upskill/format.md, "Bodies are delivered
verbatim"). Where lines were removed, the blank lines that met across the gap
collapse to the longest run on either side of it, so a removed block leaves
no blank-line run the author did not write; a gap at the very end leaves no
trailing blank lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from upskill.clients import FAMILIES
from upskill.errors import FormatError

_OPEN = re.compile(r"^\s{0,3}<!--\s*@client:\s*(?P<list>.*?)\s*-->\s*$")
_CLOSE = re.compile(r"^\s{0,3}<!--\s*@endclient\s*-->\s*$")
_MARKER_HINT = re.compile(r"<!--\s*@(?:client|endclient)\b")
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")


@dataclass(frozen=True)
class Directive:
    negated: bool
    clients: tuple[str, ...]

    def includes(self, family: str) -> bool:
        return (family in self.clients) != self.negated


@dataclass(frozen=True)
class _Line:
    text: str
    in_fence: bool


def _lines(body: str) -> Iterator[_Line]:
    fence: str | None = None
    for text in body.split("\n"):
        match = _FENCE.match(text)
        if fence is None:
            if match:
                fence = match.group(1)
                yield _Line(text, True)
                continue
            yield _Line(text, False)
        else:
            yield _Line(text, True)
            marker = match.group(1) if match is not None else ""
            if (
                marker[:1] == fence[0]
                and len(marker) >= len(fence)
                and not text.strip().lstrip(fence[0])
            ):
                fence = None


def _parse_open(text: str, path: Path, line: int, report: _Report) -> Directive:
    match = _OPEN.match(text)
    assert match is not None
    spec = match.group("list")
    negated = spec.startswith("!")
    names = [n.strip() for n in spec.removeprefix("!").split(",")]
    if any(not n for n in names):
        report(FormatError("directive has an empty client list", path=path, line=line))
    for name in names:
        if name.startswith("!"):
            report(
                FormatError(
                    "'!' negates the whole list and may appear only once, at its start",
                    path=path,
                    line=line,
                )
            )
        elif name and name not in FAMILIES:
            known = ", ".join(FAMILIES)
            report(
                FormatError(
                    f"unknown client {name!r} in directive (known: {known})", path=path, line=line
                )
            )
    return Directive(negated, tuple(n for n in names if n))


class _Report:
    """Raise the first error (processing) or collect them all (validation)."""

    def __init__(self, collect: bool) -> None:
        self.collect = collect
        self.errors: list[FormatError] = []

    def __call__(self, error: FormatError) -> None:
        if not self.collect:
            raise error
        self.errors.append(error)


def _scan(
    body: str, path: Path, first_line: int, report: _Report
) -> Iterator[tuple[int, _Line, Directive | None]]:
    """Yield each content line (its 0-based index, the line, the block it sits in)."""
    active: Directive | None = None
    opened_at = 0
    for offset, line in enumerate(_lines(body)):
        number = first_line + offset
        if line.in_fence:
            yield offset, line, active
            continue
        if _OPEN.match(line.text):
            if active is not None:
                report(
                    FormatError(
                        f"nested directive (block opened on line {opened_at} is still open)",
                        path=path,
                        line=number,
                    )
                )
                continue
            active = _parse_open(line.text, path, number, report)
            opened_at = number
            continue
        if _CLOSE.match(line.text):
            if active is None:
                report(
                    FormatError(
                        "'<!-- @endclient -->' without an open directive", path=path, line=number
                    )
                )
            active = None
            continue
        if _MARKER_HINT.search(line.text):
            report(
                FormatError(
                    "directive markers must be on their own line, as "
                    "'<!-- @client:<list> -->' or '<!-- @endclient -->'",
                    path=path,
                    line=number,
                )
            )
        yield offset, line, active
    if active is not None:
        report(
            FormatError(
                "unclosed directive (missing '<!-- @endclient -->')", path=path, line=opened_at
            )
        )


def validate_directives(body: str, path: Path, *, first_line: int = 1) -> list[FormatError]:
    """Every directive error in `body`, in line order (empty when valid)."""
    if not has_directives(body):  # every marker and every hint names @client/@endclient
        return []
    report = _Report(collect=True)
    for _ in _scan(body, path, first_line, report):
        pass
    return report.errors


def process_directives(body: str, family: str, path: Path, *, first_line: int = 1) -> str:
    """The body as seen by `family`: markers and excluded blocks removed, nothing else."""
    if not has_directives(body):
        return body
    content, terminated = (body[:-1], True) if body.endswith("\n") else (body, False)
    total = content.count("\n") + 1
    kept: list[_Line | None] = []  # None: one gap where lines were removed
    expected = 0
    for offset, line, active in _scan(content, path, first_line, _Report(collect=False)):
        if active is None or active.includes(family):
            if offset != expected:
                kept.append(None)
            kept.append(line)
            expected = offset + 1
    if expected != total:
        kept.append(None)
    out = close_gaps(kept)
    return "\n".join(out) + ("\n" if terminated and out else "")


def _blank(line: _Line | None) -> bool:
    return line is None or (not line.in_fence and not line.text.strip())


def close_gaps(lines: list[_Line | None]) -> list[str]:
    """The lines' text, each blank run that spans a gap (None) collapsed.

    The run becomes its longest stretch between gaps, so it is never longer
    than a run the author wrote; a run that spans a gap and ends the body
    disappears. Runs without a gap are left exactly as they are.
    """
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if not _blank(line):
            assert line is not None
            out.append(line.text)
            index += 1
            continue
        end = index
        while end < len(lines) and _blank(lines[end]):
            end += 1
        run = lines[index:end]
        stretches: list[list[str]] = [[]]
        for member in run:
            if member is None:
                stretches.append([])
            else:
                stretches[-1].append(member.text)
        if len(stretches) == 1:
            out.extend(stretches[0])
        elif end < len(lines):
            longest: list[str] = max(stretches, key=len)
            out.extend(longest)
        index = end
    return out


def has_directives(body: str) -> bool:
    return "@client" in body or "@endclient" in body
