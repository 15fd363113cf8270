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


# In match order: the first construct matching at a position wins.
CRUSH: tuple[Construct, ...] = (
    Construct(r"\$\{[A-Za-z_][A-Za-z0-9_]*\}", Action.KEEP, "an environment reference"),
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

    def __init__(self, what: str) -> None:
        super().__init__(f"holds {what}, which Crush would evaluate")
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
