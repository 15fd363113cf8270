"""`upskill --help` (and a bare `upskill`) without argparse.

The top-level help is the most common thing a new user runs, and argparse
with its `re`, `enum`, `gettext` and `textwrap` costs more than the rest of
start-up together. So the top-level help is laid out here, from the same
command table and strings the parser declares, the way argparse's
`HelpFormatter` lays it out (a test compares the two, byte for byte, over a
range of widths). Below `MIN_WIDTH` argparse wraps the usage line too, and
the dispatcher lets argparse do it. This module imports `os` alone.
"""

from __future__ import annotations

import os

from upskill.commands import COMMANDS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import TextIO

DESCRIPTION = "Author rules, skills and agents once; install them into every AI client."
METAVAR = "<command>"
# The global flags: (option strings, help). -h and -V carry argparse's own help texts.
NO_COLOR = ("--no-color",), "disable coloured output"
QUIET = ("-q", "--quiet"), "print only errors and data"
_OPTIONS = (
    (("-h", "--help"), "show this help message and exit"),
    (("-V", "--version"), "show program's version number and exit"),
    NO_COLOR,
    QUIET,
)
USAGE = f"usage: upskill [-h] [-V] [--no-color] [-q] {METAVAR} ..."
MIN_WIDTH = 60  # from here on the usage line and every entry name fit on one line
_MAX_HELP_POSITION = 24  # argparse's default


def help_width(env: Mapping[str, str], out: TextIO) -> int:
    """The width argparse formats help at: `COLUMNS` (from the run's environment), else the
    terminal `out` is, else 80; less two, as `argparse.HelpFormatter` takes it."""
    try:
        columns = int(env.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(out.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns or 80) - 2


def top_help(width: int) -> str | None:
    """The text of `upskill --help` at `width` (see `help_width`); None below `MIN_WIDTH`."""
    if width < MIN_WIDTH:
        return None
    options = [(", ".join(flags), text) for flags, text in _OPTIONS]
    commands = [(name, summary) for name, (_module, summary) in COMMANDS.items()]
    longest = max(
        max(len(name) for name, _ in options) + 2,
        max(len(name) for name, _ in commands) + 4,
        len(METAVAR) + 2,
    )
    position = min(longest + 2, _MAX_HELP_POSITION)
    lines = [USAGE, "", *_wrap(DESCRIPTION, width), "", "positional arguments:", f"  {METAVAR}"]
    lines += [line for name, text in commands for line in _entry(4, name, text, position, width)]
    lines += ["", "options:"]
    lines += [line for name, text in options for line in _entry(2, name, text, position, width)]
    return "\n".join(lines) + "\n"


def _entry(indent: int, name: str, text: str, position: int, width: int) -> list[str]:
    """One action as `HelpFormatter._format_action` lays it out."""
    room = position - indent - 2
    wrapped = _wrap(text, max(width - position, 11))
    if len(name) <= room:
        head = [" " * indent + name.ljust(room) + "  " + wrapped[0]]
    else:
        head = [" " * indent + name, " " * position + wrapped[0]]
    return head + [" " * position + line for line in wrapped[1:]]


def _wrap(text: str, width: int) -> list[str]:
    """`textwrap.wrap(text, width)` for one-line prose: greedy, breaking at spaces and
    after a hyphen between letters (`Re-fetch`), as textwrap does."""
    lines: list[str] = []
    line = ""
    for chunk in _chunks(text):
        if chunk == " ":
            if line:  # whitespace never starts a line
                line += chunk
            continue
        if line and len(line) + len(chunk) > width:
            lines.append(line.rstrip(" "))
            line = ""
        line += chunk
    return [*lines, line.rstrip(" ")] if line else lines


def _chunks(text: str) -> list[str]:
    chunks: list[str] = []
    for n, word in enumerate(text.split(" ")):
        if n:
            chunks.append(" ")
        start = 0
        for i, char in enumerate(word):
            if char == "-" and _hyphen_breaks(word, i):
                chunks.append(word[start : i + 1])
                start = i + 1
        chunks.append(word[start:])
    return chunks


def _hyphen_breaks(word: str, i: int) -> bool:
    """textwrap breaks after the hyphen at `i` when two letters (or letter-hyphen-letter)
    precede it and a letter, an optional hyphen and a letter follow."""
    before = word[max(i - 3, 0) : i]
    after = word[i + 1 : i + 4]
    behind = (len(before) >= 2 and before[-2:].isalpha()) or (
        len(before) == 3 and before[0].isalpha() and before[1] == "-" and before[2].isalpha()
    )
    ahead = (len(after) >= 2 and after[:2].isalpha()) or (
        len(after) == 3 and after[0].isalpha() and after[1] == "-" and after[2].isalpha()
    )
    return behind and ahead
