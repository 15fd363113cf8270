"""Split an entrypoint into its YAML frontmatter and Markdown body.

Tolerates a UTF-8 BOM and CRLF line endings (authors on Windows), and records
the 1-based line where the YAML and the body start so that every later error
can point at the right line of the original file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from upskill.errors import FormatError


@dataclass(frozen=True)
class SplitDocument:
    yaml: str
    body: str
    yaml_line: int  # line number of the first YAML line
    body_line: int  # line number of the first body line


def normalise_newlines(text: str) -> str:
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def _is_fence(line: str) -> bool:
    return line.rstrip() == "---"


def closing_fence(lines: Sequence[str]) -> int | None:
    """Index of the line closing the frontmatter that `lines[0]` opens; None without one.

    The one definition of a frontmatter block: a `---` line first, up to the
    next `---` line (trailing whitespace allowed on both). The parser, `fmt`,
    `lint` and the Markdown formatter all split through it.
    """
    if not lines or not _is_fence(lines[0]):
        return None
    return next((i for i in range(1, len(lines)) if _is_fence(lines[i])), None)


def split_frontmatter(text: str, path: Path) -> SplitDocument:
    lines = normalise_newlines(text).split("\n")
    if not _is_fence(lines[0]):
        raise FormatError(
            "missing YAML frontmatter (the file must start with '---')", path=path, line=1
        )
    index = closing_fence(lines)
    if index is None:
        raise FormatError("unterminated YAML frontmatter (no closing '---')", path=path, line=1)
    yaml_text = "\n".join(lines[1:index]) + "\n"
    body = "\n".join(lines[index + 1 :])
    return SplitDocument(yaml=yaml_text, body=body, yaml_line=2, body_line=index + 2)


def has_frontmatter(text: str) -> bool:
    return _is_fence(normalise_newlines(text).split("\n", 1)[0])
