"""Canonical text of an SSOT file: what `upskill fmt` writes and `lint` compares against.

Frontmatter keys are put in format spec §3.8 order by moving line blocks
(`upskill.author.blocks`), never by re-serialising YAML, so comments and
scalar styles survive. The result is parsed again and must equal the input
data, or nothing is written. The Markdown body goes through the one pinned
formatter (`upskill.markdown.format_body`) and the frontmatter/body seam
becomes exactly one blank line. Output is UTF-8 with LF endings and no BOM.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from upskill.author.blocks import FrontmatterBlocks, join_blocks, split_blocks
from upskill.author.keyorder import canonical_key_order
from upskill.errors import FormatError
from upskill.format.frontmatter import normalise_newlines, split_frontmatter
from upskill.format.yamlio import load_yaml


def _lines(yaml_text: str) -> list[str]:
    lines = yaml_text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _mapping(data: Any, path: Path, line: int) -> dict[str, Any]:
    if data is None:
        return {}  # empty (or comment-only) frontmatter: nothing to reorder
    if not isinstance(data, dict):
        raise FormatError("frontmatter must be a YAML mapping", path=path, line=line)
    return data


def reorder_yaml(yaml_text: str, kind: str, path: Path, *, first_line: int = 1) -> str:
    """`yaml_text` with its top-level keys in canonical order (a fixed point when already so).

    Raises FormatError when the YAML does not parse, is not a mapping, or is
    not in a line-block layout that can be reordered without changing data.
    """
    before = _mapping(load_yaml(yaml_text, path, first_line=first_line), path, first_line)
    keys = [str(key) for key in before]
    order = canonical_key_order(kind, keys)
    lines = _lines(yaml_text)
    parts = split_blocks(lines)
    if parts.keys == keys:
        out = _emit(parts, order)
        if _parses_to(out, before, path):
            return out
        problem = "reordering frontmatter would change its data; fix the layout by hand"
    else:
        problem = (
            "cannot reorder frontmatter safely: every top-level key must start an "
            "unindented 'key:' line (no flow mappings or complex keys)"
        )
    if order == keys:
        return yaml_text  # already in canonical order: leave a layout we cannot cut alone
    raise FormatError(problem, path=path, line=first_line)


def _parses_to(text: str, expected: dict[str, Any], path: Path) -> bool:
    try:
        return bool(load_yaml(text, path) == expected)
    except FormatError:
        return False


def _emit(parts: FrontmatterBlocks, order: list[str]) -> str:
    lines = join_blocks(parts, order)
    return "\n".join(lines) + "\n" if lines else ""


def canonical_body(body: str) -> str:
    """What follows the closing `---`: one blank line, then the formatted body (or nothing)."""
    from upskill.markdown import format_body

    formatted = format_body(body)
    return f"\n{formatted}" if formatted else ""


def canonical_entrypoint(text: str, kind: str, path: Path) -> str:
    """Canonical text of a RULE.md / SKILL.md / AGENT.md file."""
    document = split_frontmatter(text, path)
    yaml_text = reorder_yaml(document.yaml, kind, path, first_line=document.yaml_line)
    return f"---\n{yaml_text}---\n{canonical_body(document.body)}"


def canonical_bundle(text: str, path: Path) -> str:
    """Canonical text of a `*.bundle.yaml` manifest (pure YAML, no body)."""
    return reorder_yaml(normalise_newlines(text), "bundle", path)


def canonical_override(text: str, path: Path) -> str:
    """Canonical text of a `<KIND>.<client>.md` override: a formatted body, no frontmatter."""
    from upskill.format.frontmatter import has_frontmatter
    from upskill.markdown import format_body

    if has_frontmatter(text):
        raise FormatError(
            "override files contain body only; remove the '---' block", path=path, line=1
        )
    return format_body(text)


def markdown_body(text: str, kind: str, path: Path) -> str | None:
    """The Markdown a target's canonical form formats: an entrypoint's body, an override
    whole, nothing for a bundle. Call after `canonical_text` accepted the text."""
    if kind == "bundle":
        return None
    if kind == "override":
        return text
    return split_frontmatter(text, path).body


def canonical_text(text: str, kind: str, path: Path) -> str:
    if kind == "bundle":
        return canonical_bundle(text, path)
    if kind == "override":
        return canonical_override(text, path)
    return canonical_entrypoint(text, kind, path)


def decode(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError(f"not valid UTF-8 (byte {exc.start})", path=path, line=None) from None
