"""A linear pre-scan that bounds what tomllib is asked to parse.

tomllib recurses once per level of array or inline-table nesting (100k levels
end in RecursionError) and re-checks every prefix of a dotted key (a key of n
parts costs O(n^2): 100k parts ran for minutes). A valid manifest needs two
levels of nesting and no dotted key at all, so anything far beyond that is
refused here, in one pass over the text, before tomllib sees it.
"""

from __future__ import annotations

MAX_NESTING = 32
MAX_DOTS_PER_LINE = 64


def shape_problem(text: str) -> str | None:
    """Why text is too deeply nested for a manifest, or None. Strings and comments
    are skipped, so brackets and dots inside them never count."""
    depth = 0
    dots = 0
    index = 0
    length = len(text)
    while index < length:
        char = text[index]
        if char == "#":
            newline = text.find("\n", index)
            index = length if newline < 0 else newline
            continue
        if char in "\"'":
            index = _skip_string(text, index)
            continue
        if char == "\n":
            dots = 0
        elif char == ".":
            dots += 1
            if dots > MAX_DOTS_PER_LINE:
                return f"a line has more than {MAX_DOTS_PER_LINE} dotted key parts"
        elif char in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return f"arrays or inline tables nest deeper than {MAX_NESTING} levels"
        elif char in "]}":
            depth = max(0, depth - 1)
        index += 1
    return None


def _skip_string(text: str, start: int) -> int:
    """Index just past the string literal that starts at start (or the end of text)."""
    quote = text[start]
    triple = text.startswith(quote * 3, start)
    delimiter = quote * 3 if triple else quote
    index = start + len(delimiter)
    while index < len(text):
        char = text[index]
        if quote == '"' and char == "\\":
            index += 2
            continue
        if not triple and char == "\n":
            return index  # an unterminated one-line string: let tomllib report it
        if text.startswith(delimiter, index):
            end = index + len(delimiter)
            while end < len(text) and text[end] == quote and triple:
                end += 1  # up to two quotes may close a multi-line string
            return end
        index += 1
    return index
