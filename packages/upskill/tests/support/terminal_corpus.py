"""Control sequences a hostile value may carry, and the check that none reached a terminal.

Shared by every test that plants data where a command prints it (issue 24, 1).
"""

from __future__ import annotations

# OSC 52 clipboard write, OSC 8 hidden link, clear screen, bare CR rewriting a line,
# a C1 CSI, BEL and DEL.
CORPUS = {
    "osc52": "\x1b]52;c;cHduZWQ=\x07",
    "osc8": "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\",
    "clear": "\x1b[2J\x1b[H",
    "cr": "\rall good",
    "c1": "\x9b31mred",
    "del": "x\x7fy",
}
# Sequences a file name can hold (no `/`).
NAME_SAFE = {k: v for k, v in CORPUS.items() if "/" not in v}


def assert_inert(text: str) -> None:
    """No code point a terminal acts on but newline and tab."""
    bad = sorted({f"{ord(c):#04x}" for c in text if (ord(c) < 0x20 and c not in "\n\t")
                  or 0x7F <= ord(c) < 0xA0})  # fmt: skip
    assert not bad, f"raw control characters {bad} in {text!r}"
