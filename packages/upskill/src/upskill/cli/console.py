"""The streams a command prints to: data on stdout, progress and messages on stderr.

Progress lines redraw in place on a TTY and are plain lines otherwise; `-q`
silences everything but data and errors; colour only on a TTY without
NO_COLOR. The dispatcher creates one console per run and hands it to the
command. It is on the path of every command and of `--help`, so it imports
nothing but `os` (no dataclasses, whose import pulls in `inspect`).
"""

from __future__ import annotations

import os
from typing import TextIO


class Console:
    def __init__(self, out: TextIO, err: TextIO, quiet: bool = False, color: bool = False) -> None:
        self.out = out
        self.err = err
        self.quiet = quiet
        self.color = color
        self._live = False  # a progress line is on screen and must be cleared first

    @classmethod
    def create(cls, out: TextIO, err: TextIO, *, quiet: bool, no_color: bool) -> Console:
        tty = err.isatty()
        color = tty and not no_color and "NO_COLOR" not in os.environ
        return cls(out, err, quiet, color)

    @property
    def tty(self) -> bool:
        return self.err.isatty()

    def progress(self, message: str) -> None:
        if self.quiet:
            return
        if self.tty:
            self.err.write(f"\r\x1b[2K{message}")
            self._live = True
        else:
            self.err.write(message + "\n")
        self.err.flush()

    def done(self) -> None:
        if self._live:
            self.err.write("\r\x1b[2K")
            self.err.flush()
            self._live = False

    def info(self, message: str) -> None:
        if not self.quiet:
            self.done()
            self.err.write(message + "\n")

    def warn(self, message: str) -> None:
        if self.quiet:  # -q: only errors and data
            return
        self.done()
        self.err.write(self._paint("warning: ", "33") + message + "\n")

    def error(self, message: str) -> None:
        """The one shape of an error line, `upskill: error: <message>`, even under -q."""
        self.done()
        self.err.write("upskill: " + self._paint("error: ", "31") + message + "\n")

    def internal(self, message: str) -> None:
        """A bug in upskill: `upskill: internal error: <message>`."""
        self.done()
        self.err.write("upskill: " + self._paint("internal error: ", "31") + message + "\n")

    def data(self, text: str) -> None:
        self.out.write(text)

    def _paint(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color else text
