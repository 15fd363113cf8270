"""The `perm` rwx ceiling: `r`/`w`/`x` or `-` in three fixed positions, shown as owner mode bits."""

from __future__ import annotations

from dataclasses import dataclass

_LETTERS = "rwx"


@dataclass(frozen=True)
class Perm:
    read: bool
    write: bool
    execute: bool

    def has(self, bit: str) -> bool:
        return {"r": self.read, "w": self.write, "x": self.execute}[bit]

    @property
    def owner_bits(self) -> int:
        return (
            (0o400 if self.read else 0)
            | (0o200 if self.write else 0)
            | (0o100 if self.execute else 0)
        )

    def render(self) -> str:
        flags = (self.read, self.write, self.execute)
        return "".join(letter if on else "-" for letter, on in zip(_LETTERS, flags, strict=True))


def parse_perm(text: str) -> Perm:
    """Parse `r-x`-style text; ValueError on anything else."""
    if len(text) != 3 or any(
        c not in (letter, "-") for c, letter in zip(text, _LETTERS, strict=True)
    ):
        raise ValueError(f"perm must look like 'rwx', 'r-x' or '---', got {text!r}")
    return Perm(text[0] == "r", text[1] == "w", text[2] == "x")


def perm_from_mode(mode: int) -> Perm:
    return Perm(bool(mode & 0o400), bool(mode & 0o200), bool(mode & 0o100))
