"""Split an entrypoint into its YAML frontmatter and Markdown body.

Tolerates a UTF-8 BOM and CRLF line endings (authors on Windows), and records
the 1-based line where the YAML and the body start so that every later error
can point at the right line of the original file.
"""

from __future__ import annotations

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


def split_frontmatter(text: str, path: Path) -> SplitDocument:
    text = normalise_newlines(text)
    lines = text.split("\n")
    if not lines or lines[0].rstrip() != "---":
        raise FormatError(
            "missing YAML frontmatter (the file must start with '---')", path=path, line=1
        )
    for index in range(1, len(lines)):
        if lines[index].rstrip() == "---":
            yaml_text = "\n".join(lines[1:index]) + "\n"
            body = "\n".join(lines[index + 1 :])
            return SplitDocument(yaml=yaml_text, body=body, yaml_line=2, body_line=index + 2)
    raise FormatError("unterminated YAML frontmatter (no closing '---')", path=path, line=1)


def has_frontmatter(text: str) -> bool:
    return normalise_newlines(text).split("\n", 1)[0].rstrip() == "---"
