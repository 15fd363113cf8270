"""The `@path` words a client reads as imports in its instructions files.

Gemini CLI (its "memport") treats `@` at the start of the text or after a space, tab
or line break, followed by a word starting with `.`, `/` or an ASCII letter, as an
import of the file that word names, anywhere outside a backtick code span or fence,
in every context file it reads (`GEMINI.md`, `.gemini/upskill.md`, an `AGENTS.md`
its settings name). The word is replaced by that file's text, or by
`<!-- Import failed: <word> - ENOENT ... -->` when there is none: a rule saying "ask
@security-team" reaches the model without the team's name. Gemini offers no escape
that keeps the text: a backslash stays in the text (`\\@team`), and a code span, a
non-breaking space or a zero-width character change what the model reads. So upskill
reports each such word (`upskill lint`, and the install of a rule for a client with
`Client.at_imports`), and the author chooses the wording.

`at_imports` follows gemini-cli 0.61.0's `findImports` and `findCodeRegions`
(bundle/chunk-*.js) step for step; tests/clients/test_gemini_imports.py runs both on
the same texts.
"""

from __future__ import annotations

import re

_CODE = re.compile(r"(`+)([\s\S]*?)\1")
_SPACE = " \t\n\r"


def at_imports(text: str) -> tuple[tuple[int, str], ...]:
    """(offset of the `@`, the word after it) for every import the client would try."""
    regions = [(m.start(), m.end()) for m in _CODE.finditer(text)]
    found = []
    i = 0
    while (i := text.find("@", i)) >= 0:
        if i > 0 and text[i - 1] not in _SPACE:
            i += 1
            continue
        j = i + 1
        while j < len(text) and text[j] not in _SPACE:
            j += 1
        word = text[i + 1 : j]
        first = word[:1]
        named = bool(first) and (first in "./" or (first.isascii() and first.isalpha()))
        if named and not any(start <= i < end for start, end in regions):
            found.append((i, word))
        i = j + 1
    return tuple(found)


def import_note(client: str, word: str) -> str:
    """What a report says of one `@word` the client reads as an import."""
    return (
        f"{client} reads `@{word}` as an import of a file: the model gets that file, or an "
        "`Import failed` comment, in its place (reword it, or drop the space before the `@`)"
    )
