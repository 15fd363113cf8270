"""Line-block view of YAML frontmatter, so keys can be reordered without a serialiser.

Format spec §3.8 forbids a comment-dropping YAML round trip. Instead the text
is cut into blocks, one per top-level key: the column-0 comment lines directly
above the key (no blank line between), the key line, and every following line
up to the next block. Comment lines separated from the first key by a blank
line form a pinned preamble; comment and blank lines after the last key's
value form a pinned postamble. Reordering moves whole blocks, so every line
of the input appears exactly once in the output.

The splitter only recognises simple keys (plain or quoted, followed by `:`
and whitespace). Callers must check `FrontmatterBlocks.keys` against the
parsed mapping: a mismatch means the layout is not line-block form (flow
mappings, complex keys, column-0 continuation lines) and must not be touched.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_KEY_LINE = re.compile(
    r"""^(?:"(?P<dq>[^"\\]*)"|'(?P<sq>[^']*)'|(?P<plain>[A-Za-z0-9_][A-Za-z0-9_.-]*))"""
    r"""[ \t]*:(?:[ \t]|$)"""
)


def top_level_key(line: str) -> str | None:
    """The key a column-0 `key:` line introduces, or None for any other line."""
    match = _KEY_LINE.match(line)
    if match is None:
        return None
    for group in ("dq", "sq", "plain"):
        value = match.group(group)
        if value is not None:
            return value
    return None  # pragma: no cover - the regex always fills one group


def _is_comment(line: str) -> bool:
    return line.startswith("#")


def _is_blank(line: str) -> bool:
    return line.strip() == ""


@dataclass(frozen=True)
class Block:
    """One top-level key with its leading comments and value lines."""

    key: str
    lines: tuple[str, ...]
    blank_after: bool


@dataclass(frozen=True)
class FrontmatterBlocks:
    preamble: tuple[str, ...]
    blocks: tuple[Block, ...]
    postamble: tuple[str, ...]
    postamble_blank_before: bool

    @property
    def keys(self) -> list[str]:
        return [block.key for block in self.blocks]


def _strip_blank_edges(lines: Sequence[str]) -> tuple[list[str], bool, bool]:
    """Drop blank lines at both ends; report whether there were any before / after."""
    start, end = 0, len(lines)
    while start < end and _is_blank(lines[start]):
        start += 1
    while end > start and _is_blank(lines[end - 1]):
        end -= 1
    return list(lines[start:end]), start > 0, end < len(lines)


def split_blocks(lines: Sequence[str]) -> FrontmatterBlocks:
    """Cut frontmatter lines (without newlines) into preamble, key blocks and postamble."""
    key_lines = [i for i, line in enumerate(lines) if top_level_key(line) is not None]
    if not key_lines:
        body, _, _ = _strip_blank_edges(lines)
        return FrontmatterBlocks(tuple(body), (), (), False)

    starts: list[int] = []
    previous_end = 0
    for index in key_lines:
        start = index
        while start > previous_end and _is_comment(lines[start - 1]):
            start -= 1
        starts.append(start)
        previous_end = index + 1

    # Postamble: trailing comment/blank lines after the last key line.
    tail = len(lines)
    while tail > key_lines[-1] + 1 and (_is_blank(lines[tail - 1]) or _is_comment(lines[tail - 1])):
        tail -= 1
    postamble, blank_before, _ = _strip_blank_edges(lines[tail:])

    preamble, _, _ = _strip_blank_edges(lines[: starts[0]])

    blocks: list[Block] = []
    bounds = [*starts[1:], tail]
    for key_index, start, end in zip(key_lines, starts, bounds, strict=True):
        content, _, blank_after = _strip_blank_edges(lines[start:end])
        key = top_level_key(lines[key_index])
        assert key is not None
        blocks.append(Block(key, tuple(content), blank_after))
    return FrontmatterBlocks(tuple(preamble), tuple(blocks), tuple(postamble), blank_before)


def join_blocks(parts: FrontmatterBlocks, order: Sequence[str]) -> list[str]:
    """Emit the blocks in `order` (a permutation of `parts.keys`) between the pinned parts."""
    by_key = {block.key: block for block in parts.blocks}
    ordered = [by_key[key] for key in order]
    out: list[str] = []
    if parts.preamble:
        out.extend(parts.preamble)
        if ordered:
            out.append("")
    for position, block in enumerate(ordered):
        out.extend(block.lines)
        if block.blank_after and position < len(ordered) - 1:
            out.append("")
    if parts.postamble:
        if parts.postamble_blank_before:
            out.append("")
        out.extend(parts.postamble)
    return out
