"""Trimming exactly as the reference does: Rust's `str::trim` (Unicode White_Space).

`str.strip()` with no argument also removes U+001C..U+001F (Python counts the
information separators as whitespace; Unicode's White_Space property does not),
so a value like "\\x1cname" would be trimmed here and kept by the reference.
Every place the spec says "trimmed" uses these three functions instead.
"""

from __future__ import annotations

# Unicode White_Space (PropList.txt), the set Rust's `char::is_whitespace` tests.
WHITE_SPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680"
    + "".join(chr(cp) for cp in range(0x2000, 0x200B))
    + "\u2028\u2029\u202f\u205f\u3000"
)


def trim(text: str) -> str:
    return text.strip(WHITE_SPACE)


def trim_start(text: str) -> str:
    return text.lstrip(WHITE_SPACE)


def trim_end(text: str) -> str:
    return text.rstrip(WHITE_SPACE)
