"""SemVer 2.0.0 parsing and precedence, as the Rust `semver` crate applies it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import total_ordering

_NUM = r"0|[1-9][0-9]*"
_IDENT = r"[0-9A-Za-z-]+"
_PATTERN = re.compile(
    rf"(?P<major>{_NUM})\.(?P<minor>{_NUM})\.(?P<patch>{_NUM})"
    rf"(?:-(?P<pre>{_IDENT}(?:\.{_IDENT})*))?"
    rf"(?:\+(?P<build>{_IDENT}(?:\.{_IDENT})*))?"
)


@total_ordering
@dataclass(frozen=True)
class _PreId:
    """One dot-separated pre-release identifier: numeric ones sort below alphanumeric ones."""

    text: str

    @property
    def numeric(self) -> bool:
        return self.text.isdigit()

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, _PreId):
            return NotImplemented
        if self.numeric and other.numeric:
            return int(self.text) < int(other.text)
        if self.numeric != other.numeric:
            return self.numeric
        return self.text < other.text


@dataclass(frozen=True)
class Version:
    major: int
    minor: int
    patch: int
    pre: tuple[str, ...]
    build: tuple[str, ...]

    def __str__(self) -> str:
        text = f"{self.major}.{self.minor}.{self.patch}"
        if self.pre:
            text += "-" + ".".join(self.pre)
        if self.build:
            text += "+" + ".".join(self.build)
        return text


U64_MAX = 2**64 - 1


def parse(text: str) -> Version | None:
    """Strict SemVer: no leading `v`, no whitespace, no leading zeros in numeric parts.

    Major, minor and patch are u64 in the reference: a larger number makes its
    parse fail, so such a version falls back to plain string comparison there and here.
    """
    match = _PATTERN.fullmatch(text)
    if match is None:
        return None
    if any(int(match[part]) > U64_MAX for part in ("major", "minor", "patch")):
        return None
    pre = tuple(match["pre"].split(".")) if match["pre"] else ()
    if any(p.isdigit() and len(p) > 1 and p.startswith("0") for p in pre):
        return None
    build = tuple(match["build"].split(".")) if match["build"] else ()
    return Version(int(match["major"]), int(match["minor"]), int(match["patch"]), pre, build)


def _pre_key(pre: tuple[str, ...]) -> tuple[int, tuple[_PreId, ...]]:
    # A release (no pre-release) outranks every pre-release of the same core.
    return (1, ()) if not pre else (0, tuple(_PreId(p) for p in pre))


def compare(a: Version, b: Version) -> int:
    """-1, 0 or 1. Build metadata breaks ties, as the Rust crate's `Ord` (which the
    reference calls, not `cmp_precedence`) does: `1.0.0+001` is newer than `1.0.0+1`."""
    left = ((a.major, a.minor, a.patch), _pre_key(a.pre))
    right = ((b.major, b.minor, b.patch), _pre_key(b.pre))
    if left != right:
        return -1 if left < right else 1
    return _compare_build(a.build, b.build)


def _compare_build(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    key_a = tuple(_BuildId(x) for x in a)
    key_b = tuple(_BuildId(x) for x in b)
    return 0 if key_a == key_b else (-1 if key_a < key_b else 1)


@total_ordering
@dataclass(frozen=True)
class _BuildId:
    text: str

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, _BuildId):
            return NotImplemented
        a, b = self.text, other.text
        if a.isdigit() and b.isdigit():
            # 0 < 00 < 1 < 01 < 001 < 2: value first, then the longer spelling is greater.
            return (len(a.lstrip("0")), a.lstrip("0"), len(a)) < (
                len(b.lstrip("0")),
                b.lstrip("0"),
                len(b),
            )
        if a.isdigit() != b.isdigit():
            return a.isdigit()
        return a < b
