"""MCP values for a client that shell-expands them (Crush): written so that they mean
what every other client takes them to mean, or refused.

Every other client passes an MCP entry's `command`, `args`, `env`, `url` and `headers`
literally (at most resolving `${VAR}`). Crush runs each of those values through a
shell expander when it starts a server, so a `$(...)` or a backtick in a value a bundle
ships (a cloned repository, a registry) would run a command on the user's machine.
upskill never writes such a value.

What Crush evaluates, read in its source (charmbracelet/crush 37f36e93824e, 2026-08-21,
v0.90.0 + 5; mvdan.cc/sh/v3 v3.13.1, commit 879bcfa6d2db):
- `internal/agent/tools/mcp/init.go` resolves an MCP server's `command`, every `args`
  element, every `env` value, `url`, every `headers` value (and the OAuth client id and
  secret, which upskill does not write) with `config.ResolveValue`; the server name,
  `env` keys, header names, `type` and the other keys are read as written.
- `internal/config/resolve.go` `ResolveValue`: a value that is exactly `$` is an error;
  anything else goes to `internal/shell/expand.go` `ExpandValue`.
- `ExpandValue`: a value holding none of `` $ ` \\ ' " `` is returned as it is; any
  other is parsed with `syntax.NewParser().Document` (the body of an unquoted
  here-document) and expanded by `expand.Document` with command substitution wired to
  Crush's shell interpreter, and no globbing, tilde expansion or field splitting.
- In that here-document body (`syntax/lexer.go` `advanceLitHdoc`, `expand/expand.go`
  `wordField` with `quoteHeredoc`): `$NAME`, `${...}` with every operator,
  `$(...)`, `` `...` ``, `$((...))` and `$[...]` are evaluated; a backslash escapes `$`,
  `` ` `` and `\\` (the pair yields the character) and a backslash-newline is removed;
  any other backslash and both quote characters are literal text; NUL bytes are dropped
  and CR LF becomes LF while parsing (`syntax/lexer.go` `Parser.rune`).

The one table below maps each piece of a portable value: a `${VAR}` reference is kept
(Crush resolves it from its environment, as the clients that expand references do;
upskill never resolves it); a literal `$` or `\\` gets the backslash escape above,
whose result is the character itself; command substitution and arithmetic are refused
rather than escaped, so no file upskill writes ever holds shell code, escaped or not;
NUL and CR LF, which the parser alters and no escape preserves, are refused too.

`unshell` goes the other way, for `upskill import`: it reads a value as Crush expands it
(the same rules) and gives the portable text, or raises `Unexpressible` when that
meaning is not a literal with `${VAR}` references (shell code is never imported as text).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass


class Action(enum.Enum):
    KEEP = "keep"  # written as it is: the client resolves it, as the portable form means
    ESCAPE = "escape"  # a backslash in front makes the client yield the text itself
    REFUSE = "refuse"  # the client would evaluate it and no escape is written


@dataclass(frozen=True)
class Construct:
    pattern: str  # a regular expression matched at the current position
    action: Action
    what: str  # how a refusal names it


_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_BRACED = re.compile(r"\$\{(" + _NAME + r")\}")  # a `${VAR}` reference, the portable form
_BARE = re.compile(r"\$(" + _NAME + ")")

# In match order: the first construct matching at a position wins. The patterns hold no
# group: `_SCANNER` tells the constructs apart by their group's number.
CRUSH: tuple[Construct, ...] = (
    Construct(r"\$\{" + _NAME + r"\}", Action.KEEP, "an environment reference"),
    Construct(r"\$\(\(", Action.REFUSE, "arithmetic expansion `$((`"),
    Construct(r"\$\(", Action.REFUSE, "command substitution `$(`"),
    Construct(r"`", Action.REFUSE, "command substitution (a backtick)"),
    Construct(r"\x00", Action.REFUSE, "a NUL byte, which Crush drops"),
    Construct(r"\r\n", Action.REFUSE, "a CR LF line break, which Crush turns into LF"),
    Construct(r"\$", Action.ESCAPE, "a literal `$`"),
    Construct(r"\\", Action.ESCAPE, "a literal backslash"),
)

_SCANNER = re.compile("|".join(f"({c.pattern})" for c in CRUSH))


class Unexpressible(ValueError):
    """A value the client would evaluate: `what` names the construct."""

    def __init__(self, what: str, why: str = "which Crush would evaluate") -> None:
        super().__init__(f"holds {what}, {why}")
        self.what = what


def for_shell(value: str) -> str:
    """The value to write so that the client's expansion yields `value` with only its
    `${VAR}` references resolved; raises `Unexpressible` otherwise."""
    out: list[str] = []
    end = 0
    for match in _SCANNER.finditer(value):
        out.append(value[end : match.start()])
        construct = CRUSH[(match.lastindex or 1) - 1]
        if construct.action is Action.REFUSE:
            raise Unexpressible(construct.what)
        if construct.action is Action.ESCAPE:
            out.append("\\")
        out.append(match.group())
        end = match.end()
    out.append(value[end:])
    return "".join(out)


_SPECIAL = frozenset("$`\\'\"")


def _evaluated(rest: str) -> str:
    """How a refusal names the `$` construct at the start of `rest`."""
    for construct in CRUSH:
        if construct.action is Action.REFUSE and re.match(construct.pattern, rest):
            return construct.what
    return f"`{rest[:3]}`, an expansion other than `${{VAR}}`"


def unshell(value: str) -> str:
    """The portable value meaning what the client makes of `value`: escapes undone, a
    bare `$VAR` spelled `${VAR}`; raises `Unexpressible` when the client would evaluate
    anything else, or yields a literal `${VAR}` the portable form would read as a
    reference. The inverse of `for_shell` on every value it accepts."""
    if value == "$":
        raise Unexpressible("a lone `$`", "which Crush rejects")
    if not _SPECIAL.intersection(value):
        return value  # ExpandValue's fast path: returned as it is
    text = value.replace("\x00", "").replace("\r\n", "\n")  # Parser.rune
    out: list[str] = []
    refs: set[int] = set()  # where in the result a reference starts
    size = 0
    i = 0
    while i < len(text):
        c = text[i]
        piece: str
        if c == "\\":
            nxt = text[i + 1 : i + 2]
            if nxt == "\n" and not (i > 0 and text[i - 1] == "\\"):
                piece = ""  # a line continuation
            elif nxt in ("\\", "$", "`"):
                piece = nxt  # the escaped character itself
            else:
                piece = c + nxt  # any other backslash is literal
            i += 1 + len(nxt)
        elif c == "`":
            raise Unexpressible("command substitution (a backtick)")
        elif c == "$":
            found = _BRACED.match(text, i) or _BARE.match(text, i)
            if found is None:
                raise Unexpressible(_evaluated(text[i:]))
            refs.add(size)
            piece = "${" + found.group(1) + "}"
            i = found.end()
        else:
            piece = c
            i += 1
        out.append(piece)
        size += len(piece)
    result = "".join(out)
    for ref in _BRACED.finditer(result):
        if ref.start() not in refs:
            raise Unexpressible(
                f"an escaped `{ref.group()}`", "which Crush reads as text, not as a reference"
            )
    return result
