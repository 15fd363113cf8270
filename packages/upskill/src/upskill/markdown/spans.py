"""Where each link destination is written in a Markdown document.

Install delivers bodies as their authors wrote them, so link rewriting must
edit the source text, not re-render a token stream. markdown-it reports the
line range of a block but not the place of an inline link, so its `link` and
`image` rules are wrapped: after a rule succeeds, the destination is parsed
again with markdown-it's own helpers, giving its offset in the inline text,
which is then mapped back to the document through the block's lines (a
paragraph line ends with its inline text; a table cell is found by splitting
its row as markdown-it does). Reference definitions are located from their
recorded line range. Every span is checked against the document before it is
returned: a span that cannot be placed exactly raises RenderError, never a
guess.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from upskill.errors import RenderError

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.rules_inline import StateInline
    from markdown_it.token import Token

_FOUND = "upskill_destinations"
_CELL_OPEN = frozenset({"th_open", "td_open"})


@dataclass(frozen=True)
class Destination:
    """A destination as written: `text[start:end]` (angle brackets included)."""

    start: int
    end: int
    href: str  # normalised as markdown-it's tokens hold it


@dataclass(frozen=True)
class _Found:
    token: Token
    start: int  # in the inline text
    end: int
    href: str


def _spotting(rule: Callable[[StateInline, bool], bool], bang: int) -> Any:
    """`rule` (link or image), recording where the destination of each match sits."""

    def spotted(state: StateInline, silent: bool) -> bool:
        begin, count = state.pos, len(state.tokens)
        if not rule(state, silent):
            return False
        if not silent:
            found = _destination(state, begin + bang, count, image=bool(bang))
            if found is not None:
                state.env.setdefault(_FOUND, []).append(found)
        return True

    return spotted


def _destination(state: StateInline, label_at: int, count: int, *, image: bool) -> _Found | None:
    """The inline destination of the link that starts at `label_at`, or None (a reference)."""
    from markdown_it.common.utils import isStrSpace

    token = next(
        (t for t in state.tokens[count:] if t.type in ("link_open", "image")),
        None,
    )
    if token is None:
        return None
    end_of_label = state.md.helpers.parseLinkLabel(state, label_at, not image)
    pos = end_of_label + 1
    src = state.src
    if end_of_label < 0 or pos >= len(src) or src[pos] != "(":
        return None
    pos += 1
    while pos < len(src) and (isStrSpace(src[pos]) or src[pos] == "\n"):
        pos += 1
    result = state.md.helpers.parseLinkDestination(src, pos, len(src))
    href = str(token.attrs.get("src" if token.type == "image" else "href", ""))
    if not result.ok or state.md.normalizeLink(result.str) != href:
        return None
    return _Found(token, pos, result.pos, href)


@functools.cache
def _parser() -> MarkdownIt:
    """CommonMark with GFM tables and strikethrough; link and image rules spotted."""
    from markdown_it import MarkdownIt
    from markdown_it.rules_inline.image import image
    from markdown_it.rules_inline.link import link

    md = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    md.inline.ruler.at("link", _spotting(link, 0))
    md.inline.ruler.at("image", _spotting(image, 1))
    return md


def destinations(text: str) -> list[Destination]:
    """Every inline link, image and reference-definition destination, in no set order."""
    md = _parser()
    env: MutableMapping[str, Any] = {}
    tokens = md.parse(text, env)
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    owners = _inline_owners(tokens)
    found: list[Destination] = []
    for spot in env.get(_FOUND, []):
        inline, column = owners[id(spot.token)]
        offsets = _offsets(inline, column, lines, starts)
        found.append(_checked(text, inline.content, spot, offsets))
    for label, reference in env.get("references", {}).items():
        found.append(_reference(md, text, lines, starts, label, reference))
    return found


def _inline_owners(tokens: list[Token]) -> dict[int, tuple[Token, int | None]]:
    """Each inline child's inline token, with its table column (None outside tables)."""
    owners: dict[int, tuple[Token, int | None]] = {}
    column = -1
    previous = ""
    for token in tokens:
        if token.type == "tr_open":
            column = -1
        if token.type in _CELL_OPEN:
            column += 1
        if token.type == "inline":
            cell = column if previous in _CELL_OPEN else None
            for child in token.children or ():
                owners[id(child)] = (token, cell)
        previous = token.type
    return owners


def _offsets(
    inline: Token, column: int | None, lines: list[str], starts: list[int]
) -> list[int] | None:
    """The document offset of each character of `inline.content`, or None."""
    if inline.map is None:
        return None
    first = inline.map[0]
    if column is not None:
        return _cell_offsets(inline.content, column, lines[first], starts[first])
    offsets: list[int] = []
    for number, piece in enumerate(inline.content.split("\n")):
        if first + number >= len(lines):
            return None
        source = lines[first + number]
        core = piece.strip(" \t")
        lead = len(piece) - len(piece.lstrip(" \t"))
        at = source.rfind(core)
        if at < 0:
            return None
        base = starts[first + number] + at - lead
        offsets.extend(base + index for index in range(len(piece)))
        offsets.append(base + len(piece))  # the newline
    return offsets


def _cell_offsets(content: str, column: int, row: str, row_start: int) -> list[int] | None:
    """Split `row` like markdown-it's escapedSplit, keeping each character's offset."""
    cells: list[list[int]] = [[]]
    escaped = False
    for index, char in enumerate(row):
        if char == "|" and not escaped:
            cells.append([])
        elif char == "|":
            cells[-1].pop()  # `\|` is a literal pipe: the backslash goes
            cells[-1].append(index)
        else:
            cells[-1].append(index)
        escaped = char == "\\"
    texts = ["".join(row[i] for i in cell).strip() for cell in cells]
    candidates = [i for i, text in enumerate(texts) if text == content]
    if not candidates:
        return None
    # markdown-it drops the empty column before a leading `|`; a container
    # prefix (`> `) in `row` may shift the count, hence the fallback.
    leading = 1 if not texts[0] else 0
    pick = column + leading if column + leading in candidates else candidates[0]
    cell = cells[pick]
    text = "".join(row[i] for i in cell)
    lead = len(text) - len(text.lstrip())
    return [row_start + i for i in cell[lead : lead + len(content)]]


def _checked(text: str, content: str, spot: _Found, offsets: list[int] | None) -> Destination:
    written = content[spot.start : spot.end]
    if offsets is not None and spot.end <= len(offsets) and spot.end > spot.start:
        start = offsets[spot.start]
        end = offsets[spot.end - 1] + 1
        if text[start:end] == written:
            return Destination(start, end, spot.href)
    raise RenderError(f"cannot locate the link destination {written!r} in the body")


def _reference(
    md: MarkdownIt,
    text: str,
    lines: list[str],
    starts: list[int],
    label: str,
    reference: dict[str, Any],
) -> Destination:
    """The destination of a reference definition, found in its recorded lines."""
    first, last = reference["map"]
    region = "\n".join(lines[first:last])
    pos = _after_label(region)
    if pos is not None:
        result = md.helpers.parseLinkDestination(region, pos, len(region))
        if result.ok and md.normalizeLink(result.str) == reference["href"]:
            return Destination(starts[first] + pos, starts[first] + result.pos, reference["href"])
    raise RenderError(f"cannot locate the destination of the link reference [{label}]")


def _after_label(region: str) -> int | None:
    """Offset of the destination after `[label]:` (and blanks, a newline, `>` markers)."""
    pos = region.find("[")
    if pos < 0:
        return None
    pos += 1
    while pos < len(region) and region[pos] != "]":
        pos += 2 if region[pos] == "\\" else 1
    if region[pos + 1 : pos + 2] != ":":
        return None
    pos += 2
    newline_seen = False
    while pos < len(region):
        char = region[pos]
        if char == "\n" and not newline_seen:
            newline_seen = True
        elif char not in " \t" and not (newline_seen and char == ">"):
            break
        pos += 1
    return pos
