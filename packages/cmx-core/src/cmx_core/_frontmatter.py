"""§6: set `metadata.version` by surgical line edits, never a YAML re-emit.

Byte-exactness matters because the reconciled bytes are what every port hashes.
"""

from __future__ import annotations

from dataclasses import dataclass

from cmx_core._bundle import SKILL_MD, SkillFile
from cmx_core._whitespace import trim, trim_start

_OPENERS = ("---\n", "---\r\n")


@dataclass(frozen=True)
class FrontmatterSpans:
    """`opener + inner + closing_and_body` rebuilds the document exactly."""

    opener: str
    inner: str
    closing_and_body: str

    @property
    def body(self) -> str:
        """Text after the closing fence line; empty when the fence ends the file."""
        for fence in ("---\r\n", "---\n"):
            if self.closing_and_body.startswith(fence):
                return self.closing_and_body[len(fence) :]
        return ""


def split_frontmatter(content: str) -> FrontmatterSpans | None:
    """Locate a leading fenced block; None when unopened or never closed."""
    opener = next((o for o in _OPENERS if content.startswith(o)), None)
    if opener is None:
        return None
    rest = content[len(opener) :]
    start = 0
    while True:
        newline = rest.find("\n", start)
        line = rest[start:] if newline < 0 else rest[start:newline]
        if line.rstrip("\r") == "---":
            return FrontmatterSpans(opener, rest[:start], rest[start:])
        if newline < 0:
            return None
        start = newline + 1


def _lines(text: str) -> list[str]:
    """Split after each `\\n` only (not `str.splitlines`, which also splits on `\\r`, VT...)."""
    parts = text.split("\n")
    lines = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _strip_eol(line: str) -> str:
    return line.rstrip("\r\n")


def _leading_ws(text: str) -> str:
    return text[: len(text) - len(text.lstrip(" \t"))]


def _is_top_level_key(line: str, key: str) -> bool:
    trimmed = _strip_eol(line)
    return (
        trimmed.startswith(key)
        and trimmed[len(key) :].startswith(":")
        and not line.startswith((" ", "\t"))
    )


def _set_in_metadata_block(lines: list[str], meta_idx: int, value: str) -> None:
    first_child_indent: str | None = None
    for i in range(meta_idx + 1, len(lines)):
        trimmed = _strip_eol(lines[i])
        if not trim(trimmed):
            continue
        indent = _leading_ws(trimmed)
        if not indent:
            break
        if first_child_indent is None:
            first_child_indent = indent
        if trim_start(trimmed).startswith("version:"):
            lines[i] = f"{_leading_ws(lines[i])}version: {value}\n"
            return
    indent = first_child_indent if first_child_indent is not None else "  "
    lines.insert(meta_idx + 1, f"{indent}version: {value}\n")


def _reconcile_inner(inner: str, value: str) -> str:
    lines = [line for line in _lines(inner) if not _is_top_level_key(line, "version")]
    meta_idx = next(
        (i for i, line in enumerate(lines) if _is_top_level_key(line, "metadata")), None
    )
    if meta_idx is not None:
        _set_in_metadata_block(lines, meta_idx, value)
    else:
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
        lines.append("metadata:\n")
        lines.append(f"  version: {value}\n")
    return "".join(lines)


def reconcile_document_version(content: str, version: str) -> str:
    """Return `content` with its frontmatter's `metadata.version` set to `version`."""
    spans = split_frontmatter(content)
    if spans is None:
        return content
    return spans.opener + _reconcile_inner(spans.inner, f'"{version}"') + spans.closing_and_body


def reconcile_skill_md_bytes(data: bytes, version: str) -> bytes:
    """Non-UTF-8 SKILL.md bytes pass through untouched, as in the reference."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    return reconcile_document_version(text, version).encode("utf-8")


def reconcile_skill_files(files: tuple[SkillFile, ...], version: str) -> tuple[SkillFile, ...]:
    """Only the bundle-root `SKILL.md` changes; every other file is returned as is."""
    return tuple(
        SkillFile(f.rel_path, reconcile_skill_md_bytes(f.data, version))
        if f.rel_path == SKILL_MD
        else f
        for f in files
    )
