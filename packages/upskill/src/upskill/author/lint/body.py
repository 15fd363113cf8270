"""Body checks (format spec §5, §6; Agent Skills progressive disclosure).

Headings, fences and links come from a CommonMark token stream rather than
line regexes, so a `#` inside a fenced block or a setext `===` heading is
judged correctly. Token line numbers are made absolute with `first_line`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from upskill.author.lint.findings import Collector, Finding, Severity
from upskill.format.directives import validate_directives

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

MAX_SKILL_BODY_LINES = 500
MAX_REFERENCE_DEPTH = 1


@functools.cache
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark")


def _line(token: Token, first_line: int) -> int | None:
    return first_line + token.map[0] if token.map else None


def _walk_links(tokens: list[Token]) -> Iterator[tuple[str, Token]]:
    """(target, block token) for every link and image, the block token giving the line."""
    for token in tokens:
        for child in token.children or ():
            if child.type == "link_open":
                yield str(child.attrs.get("href", "")), token
            elif child.type == "image":
                yield str(child.attrs.get("src", "")), token


def _relative_target(href: str) -> str | None:
    """The local path a link points at, or None for URLs, anchors and absolute paths."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or not parts.path or parts.path.startswith("/"):
        return None
    return unquote(parts.path)


class BodyChecker(Collector):
    """Checks one entrypoint body; `first_line` is the file line of the body's first line."""

    def __init__(self, path: Path, kind: str, body: str, first_line: int) -> None:
        super().__init__(path)
        self.kind = kind
        self.body = body
        self.first_line = first_line

    def run(self) -> list[Finding]:
        tokens = _parser().parse(self.body)
        self._headings(tokens)
        self._fences(tokens)
        self._links(tokens)
        self._directives()
        if self.kind == "skill":
            self._skill_length()
        return self.findings

    def _headings(self, tokens: list[Token]) -> None:
        previous = 1  # the H1 clients derive from the name
        seen = False
        for token in tokens:
            if token.type != "heading_open":
                continue
            level = int(token.tag[1:])
            line = _line(token, self.first_line)
            if level == 1:
                self.add(
                    line,
                    "body-h1",
                    Severity.WARNING,
                    "H1 heading in the body; start at '##' (clients derive the H1 from the name)",
                )
            elif level > previous + 1:
                self.add(
                    line,
                    "heading-level",
                    Severity.WARNING,
                    f"heading level {level} follows level {previous}; do not skip levels"
                    if seen
                    else f"first heading is level {level}; start at '##'",
                )
            previous, seen = level, True

    def _fences(self, tokens: list[Token]) -> None:
        for token in tokens:
            if token.type == "fence" and not token.info.strip():
                self.add(
                    _line(token, self.first_line),
                    "fence-lang",
                    Severity.WARNING,
                    "fenced code block without a language (use 'text' when none applies)",
                )

    def _links(self, tokens: list[Token]) -> None:
        item_dir = self.path.parent.resolve()
        for href, block in _walk_links(tokens):
            relative = _relative_target(href)
            if relative is None:
                continue
            line = _line(block, self.first_line)
            target = (item_dir / relative).resolve()
            if not target.is_relative_to(item_dir):
                self.add(line, "link", Severity.WARNING, f"link {href!r} leaves the item directory")
            elif not target.exists():
                self.add(line, "link", Severity.WARNING, f"link {href!r}: no such file")
            elif self.kind == "skill":
                depth = len(target.relative_to(item_dir).parts) - 1
                if depth > MAX_REFERENCE_DEPTH:
                    self.add(
                        line,
                        "reference-depth",
                        Severity.WARNING,
                        f"link {href!r} is {depth} directories deep; keep references "
                        "one level below the skill (Agent Skills)",
                    )

    def _directives(self) -> None:
        for error in validate_directives(self.body, self.path, first_line=self.first_line):
            self.add(error.line, "directive", Severity.ERROR, error.message)

    def _skill_length(self) -> None:
        count = len(self.body.strip("\n").split("\n")) if self.body.strip() else 0
        if count > MAX_SKILL_BODY_LINES:
            self.add(
                self.first_line,
                "skill-body-length",
                Severity.WARNING,
                f"skill body has {count} lines; keep it under {MAX_SKILL_BODY_LINES} and "
                "move detail into references/ (Agent Skills)",
            )


def check_body(path: Path, kind: str, body: str, first_line: int) -> list[Finding]:
    return BodyChecker(path, kind, body, first_line).run()
