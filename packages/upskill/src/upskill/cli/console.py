"""The streams a command prints to: data on stdout, progress and messages on stderr.

Progress lines redraw in place on a TTY and are plain lines otherwise; a long
phase adds an item counter (`rendering [12/200]`) on a TTY only, so a log or a
pipe gets the phase lines and nothing per item; `-q`
silences everything but data and errors; colour only on a TTY without
NO_COLOR. The dispatcher creates one console per run and hands it to the
command. It is on the path of every command and of `--help`, so it imports
nothing but `os` (no dataclasses, whose import pulls in `inspect`).

Names, descriptions, sources, URLs and paths come from registries, lockfiles
and search answers, which are data (docs/upskill/security.md). So every text
a command hands the console passes `printable` first: C0 controls other than
newline and tab, ESC, DEL and C1 are shown escaped (`\x1b`), and an OSC 52
clipboard write, an OSC 8 link, a screen clear or a bare CR that rewrites a
line never reach the terminal. The console's own colour is added after that.
`json` output relies on JSON escaping instead.
"""

from __future__ import annotations

import os

# `typing` costs more than the rest of start-up together: only the type checker
# imports it here (the `upskill.cli` front end stays free of it).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import TextIO

# Every code point a terminal may act on: C0 but newline and tab, DEL, C1.
_ESCAPED = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0)) if c not in (9, 10)}


def printable(text: str) -> str:
    """`text` with every terminal control character shown escaped, e.g. `\\x1b`; bytes of a
    file name that are not UTF-8 are shown the same way."""
    text = text.translate(_ESCAPED)
    try:
        text.encode()
    except UnicodeEncodeError:
        text = text.encode(errors="surrogateescape").decode(errors="backslashreplace")
    return text


class Console:
    def __init__(
        self,
        out: TextIO,
        err: TextIO,
        quiet: bool = False,
        color: bool = False,
        answers: TextIO | None = None,
    ) -> None:
        self.out = out
        self.err = err
        self.quiet = quiet
        self.color = color
        self.answers = answers  # where `ask` reads its reply (the run's stdin); None: no one
        self._live = False  # a progress line is on screen and must be cleared first
        self._drawn = 0.0  # when `count` last redrew its line (monotonic seconds)

    @classmethod
    def create(
        cls,
        out: TextIO,
        err: TextIO,
        *,
        quiet: bool,
        no_color: bool,
        env: Mapping[str, str] | None = None,
        answers: TextIO | None = None,
    ) -> Console:
        """`env`: the run's environment, for NO_COLOR (default: the process's)."""
        tty = err.isatty()
        color = tty and not no_color and "NO_COLOR" not in (os.environ if env is None else env)
        return cls(out, err, quiet, color, answers)

    @property
    def tty(self) -> bool:
        return self.err.isatty()

    def progress(self, message: str) -> None:
        if self.quiet:
            return
        message = printable(message)
        if self.tty:
            self.err.write(f"\r\x1b[2K{message}")
            self._live = True
        else:
            self.err.write(message + "\n")
        self.err.flush()

    def count(self, phase: str, done: int, total: int) -> None:
        """`phase [done/total]`, redrawn in place on a TTY: the first and the last item
        always, others at most every 50 ms (a terminal is slower than rendering). Nothing
        off a TTY, where `progress(phase)` already printed the phase's one line."""
        if self.quiet or not self.tty:
            return
        import time  # only on a TTY: the console's imports stay `os` alone

        now = time.monotonic()
        if done not in (1, total) and now - self._drawn < 0.05:
            return
        self._drawn = now
        self.err.write(f"\r\x1b[2K{printable(phase)} [{done}/{total}]")
        self._live = True
        self.err.flush()

    def done(self) -> None:
        if self._live:
            self.err.write("\r\x1b[2K")
            self.err.flush()
            self._live = False

    def info(self, message: str) -> None:
        if not self.quiet:
            self.done()
            self.err.write(printable(message) + "\n")

    def warn(self, message: str, *, always: bool = False) -> None:
        """`always`: the warning explains a failing exit code, so even -q shows it."""
        if self.quiet and not always:  # -q: only errors and data
            return
        self.done()
        self.err.write(self._paint("warning: ", "33") + printable(message) + "\n")

    @property
    def interactive(self) -> bool:
        """Someone can answer a question: both the answers and the prompts are a terminal."""
        return self.answers is not None and self.answers.isatty() and self.err.isatty()

    def ask(self, question: str) -> str:
        """A prompt on stderr, left open; the reply is the next line of input, stripped
        ("" when no one can answer)."""
        self.done()
        self.err.write(printable(question))
        self.err.flush()
        return "" if self.answers is None else self.answers.readline().strip()

    def error(self, message: str) -> None:
        """The one shape of an error line, `upskill: error: <message>`, even under -q."""
        self.done()
        self.err.write("upskill: " + self._paint("error: ", "31") + printable(message) + "\n")

    def internal(self, message: str) -> None:
        """A bug in upskill: `upskill: internal error: <message>`."""
        self.done()
        self.err.write(
            "upskill: " + self._paint("internal error: ", "31") + printable(message) + "\n"
        )

    def data(self, text: str) -> None:
        self.out.write(printable(text))

    def json(self, text: str) -> None:
        """Output of `json.dumps` (ASCII, the default): every control character in it is
        escaped already, but DEL, which is escaped here the JSON way."""
        self.out.write(text.replace("\x7f", "\\u007f"))

    def _paint(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color else text
