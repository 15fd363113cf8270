"""Conditional content directives (format spec §6).

    <!-- @client:claude,copilot -->   ...   <!-- @endclient -->
    <!-- @client:!opencode -->        ...   <!-- @endclient -->

Markers must sit on their own line. Lines inside fenced code blocks are
content, never markers, so documentation can show the syntax. After
processing, runs of blank lines outside fences collapse to one (MD012) and
leading blank lines are dropped.
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
) -> Iterator[tuple[_Line, Directive | None]]:
    """Yield each content line with the directive block it sits in."""
    active: Directive | None = None
    opened_at = 0
    for offset, line in enumerate(_lines(body)):
        number = first_line + offset
        if line.in_fence:
            yield line, active
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
        yield line, active
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
    """The body as seen by `family`, markers removed, blank runs collapsed."""
    kept: list[_Line] = []
    for line, active in _scan(body, path, first_line, _Report(collect=False)):
        if active is None or active.includes(family):
            kept.append(line)
    return collapse_blank_lines(kept)


def collapse_blank_lines(lines: list[_Line]) -> str:
    out: list[str] = []
    for line in lines:
        blank = not line.text.strip() and not line.in_fence
        if blank and (not out or not out[-1].strip()):
            continue
        out.append("" if blank else line.text)
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out) + "\n" if out else ""


def has_directives(body: str) -> bool:
    return "@client" in body or "@endclient" in body
