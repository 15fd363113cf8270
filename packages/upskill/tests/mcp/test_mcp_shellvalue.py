"""`mcp/shellvalue.py`: values for Crush, which shell-expands MCP values.

`crush_expand` is a model of what Crush does to a value (`config.ResolveValue` ->
`shell.ExpandValue` -> mvdan.cc/sh v3.13.1 `Parser.Document` + `expand.Document`),
written from that source: the property checks that whatever upskill writes expands to
the bundle's literal text with only its `${VAR}` references resolved, or is refused."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from upskill.mcp.model import server_from_values
from upskill.mcp.shapes import config_entry, shell_problem
from upskill.mcp.shellvalue import Unexpressible, for_shell, unshell


class Evaluates(Exception):
    """Crush would run or compute something here (command substitution, arithmetic,
    a parameter operator): no value upskill writes may reach this."""


_NAME = r"[A-Za-z_][A-Za-z0-9_]*"


def crush_expand(value: str, env: dict[str, str]) -> str:
    if value == "$":  # resolve.go: a lone `$` is an error
        raise ValueError("invalid value format: $")
    if not any(c in value for c in "$`\\'\""):  # expand.go fast path: returned as is
        return value
    # lexer.go Parser.rune: NUL bytes are skipped, CR LF reads as LF.
    text = value.replace("\x00", "").replace("\r\n", "\n")
    out: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            nxt = text[i + 1] if i + 1 < len(text) else ""
            if nxt == "\n" and not (i > 0 and text[i - 1] == "\\"):
                i += 2  # a line continuation (Parser.rune: escNewl, unless after `\`)
            elif nxt in ("\\", "$", "`"):
                out.append(nxt)  # expand.go wordField, quoteHeredoc: the escaped char
                i += 2
            else:
                out.append("\\" + nxt)  # any other backslash is literal
                i += 2
            continue
        if c == "`":
            raise Evaluates("command substitution")
        if c == "$":
            braced = re.match(r"\$\{(" + _NAME + r")\}", text[i:])
            bare = re.match(r"\$(" + _NAME + ")", text[i:])
            found = braced or bare
            if found is None:  # $( $(( $[ ${x:-...} $1 $? $$ ...
                raise Evaluates(text[i : i + 3])
            out.append(env.get(found.group(1), ""))  # unset is empty (NoUnset off)
            i += found.end()
            continue
        out.append(c)  # quotes are literal in a here-document body
        i += 1
    return "".join(out)


def test_the_model_matches_crushs_own_tests() -> None:
    """Cases from crush internal/shell/expand_test.go and mvdan's heredoc rules."""
    env = {"FOO": "bar", "HOME": "/h"}
    assert crush_expand("${FOO}/x", env) == "bar/x"
    assert crush_expand("$FOO-$UNSET.", env) == "bar-."
    assert crush_expand(r"a\$b\\c\d", env) == r"a$b\c\d"
    assert crush_expand('it\'s "q"', env) == 'it\'s "q"'
    assert crush_expand("a\\\nb", env) == "ab"
    with pytest.raises(Evaluates):
        crush_expand("$(id)", env)
    with pytest.raises(Evaluates):
        crush_expand("`id`", env)


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("plain", "plain"),
        ("${TOKEN}", "${TOKEN}"),
        ("Bearer ${TOKEN}", "Bearer ${TOKEN}"),
        ("$5", r"\$5"),
        ("$HOME", r"\$HOME"),
        ("${A:-x}", r"\${A:-x}"),
        ("$$", r"\$\$"),
        ("$[1+1]", r"\$[1+1]"),
        ("$", r"\$"),
        ("C:\\dir\\", "C:\\\\dir\\\\"),
        ('it\'s "q"', 'it\'s "q"'),
        ("~/x/*.py", "~/x/*.py"),
        ("a\nb\rc", "a\nb\rc"),
    ],
)
def test_written_forms(value: str, written: str) -> None:
    assert for_shell(value) == written


@pytest.mark.parametrize(
    ("value", "what"),
    [
        ("$(id)", "command substitution `$(`"),
        ("x`id`", "command substitution (a backtick)"),
        ("$((1+1))", "arithmetic expansion `$((`"),
        ("${A:-$(id)}", "command substitution `$(`"),
        ("\\$(id)", "command substitution `$(`"),
        ("a\x00b", "a NUL byte, which Crush drops"),
        ("a\r\nb", "a CR LF line break, which Crush turns into LF"),
    ],
)
def test_refused(value: str, what: str) -> None:
    with pytest.raises(Unexpressible) as err:
        for_shell(value)
    assert err.value.what == what
    assert str(err.value) == f"holds {what}, which Crush would evaluate"


_SHELLY = (
    *("$", "\\", "`", "$(", "$((", "${", "}", "$[", "{", "\n", "\r", "\r\n", "\x00"),
    *("'", '"', "\\\n", "$$", "$1", "$?", "~", "*", "${A:-x}", "$A"),
)
_NAMES = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,4}", fullmatch=True)
_PIECES = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=6),
    st.sampled_from(_SHELLY),
    _NAMES.map(lambda n: "${" + n + "}"),
)
_VALUES = st.lists(_PIECES, max_size=10).map("".join)
_REF = re.compile(r"\$\{(" + _NAME + r")\}")


@given(_VALUES, st.dictionaries(_NAMES, st.text(max_size=4), max_size=4))
def test_written_values_expand_to_the_literal_text(value: str, env: dict[str, str]) -> None:
    try:
        written = for_shell(value)
    except Unexpressible:
        assert any(s in value for s in ("$(", "`", "\x00", "\r\n"))
        return
    expected = _REF.sub(lambda m: env.get(m.group(1), ""), value)
    assert crush_expand(written, env) == expected


@given(_VALUES)
def test_unshell_undoes_for_shell(value: str) -> None:
    """Every value upskill writes for Crush imports back as the value it came from."""
    try:
        written = for_shell(value)
    except Unexpressible:
        return
    assert unshell(written) == value


class _Refs(dict[str, str]):
    """An environment in which every variable expands to its own `${NAME}`."""

    def get(self, key: str, default: object = None) -> str:  # type: ignore[override]
        return "${" + key + "}"


@given(_VALUES)
def test_unshell_gives_what_crush_makes_of_any_value(raw: str) -> None:
    """For any text a user may have written: what Crush yields, references kept, or a
    refusal exactly when Crush would evaluate something or yield a literal `${VAR}`."""
    try:
        imported = unshell(raw)
    except Unexpressible:
        try:
            meaning = crush_expand(raw, {})
        except (Evaluates, ValueError):
            return
        assert _REF.search(meaning) is not None  # an escaped reference: literal `${X}`
        return
    assert imported == crush_expand(raw, _Refs())


@pytest.mark.parametrize(
    ("raw", "imported"),
    [
        (r"--price=\$5", "--price=$5"),
        (r"C:\\tools\\db", r"C:\tools\db"),
        (r"a\d\'q'", r"a\d\'q'"),
        (r"\`", "`"),
        ("a\\\nb", "ab"),
        ("$HOME/${DATA}x", "${HOME}/${DATA}x"),
        ("\\$$X", "$${X}"),
        ("plain\x00\r\n", "plain\x00\r\n"),
        ("a\x00\r\n$X", "a\n${X}"),
    ],
)
def test_unshell_forms(raw: str, imported: str) -> None:
    assert unshell(raw) == imported


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("$(id)", "holds command substitution `$(`, which Crush would evaluate"),
        ("a`id`", "holds command substitution (a backtick), which Crush would evaluate"),
        ("$((1))", "holds arithmetic expansion `$((`, which Crush would evaluate"),
        ("$5", "holds `$5`, an expansion other than `${VAR}`, which Crush would evaluate"),
        ("${A:-x}", "holds `${A`, an expansion other than `${VAR}`, which Crush would evaluate"),
        ("$", "holds a lone `$`, which Crush rejects"),
        (r"\${X}", "holds an escaped `${X}`, which Crush reads as text, not as a reference"),
    ],
)
def test_unshell_refuses(raw: str, message: str) -> None:
    with pytest.raises(Unexpressible) as err:
        unshell(raw)
    assert str(err.value) == message


LOCAL = server_from_values(
    "s",
    local={"command": "run$", "args": ["ok", "$(id)"], "env": {"K": "${K}", "L": "`x`"}},
)
REMOTE = server_from_values(
    "r",
    remote={"type": "http", "url": "https://x/$(id)", "headers": {"H": "a$b", "J": "$(id)"}},
)


def test_the_first_field_at_fault_is_named() -> None:
    assert shell_problem(LOCAL, "crush") == (
        "args[1] holds command substitution `$(`, which Crush would evaluate"
    )
    assert shell_problem(REMOTE, "crush") == (
        "url holds command substitution `$(`, which Crush would evaluate"
    )
    header = server_from_values(
        "h", remote={"type": "sse", "url": "https://x", "headers": {"J": "`id`"}}
    )
    assert shell_problem(header, "crush") == (
        "headers.J holds command substitution (a backtick), which Crush would evaluate"
    )


def test_only_a_shell_expanding_client_is_affected() -> None:
    for client in ("claude", "opencode", "cursor", "codex", "gemini"):
        assert shell_problem(LOCAL, client) is None
    assert config_entry(LOCAL, "claude") == {
        "type": "stdio",
        "command": "run$",
        "args": ["ok", "$(id)"],
        "env": {"K": "${K}", "L": "`x`"},
    }
    with pytest.raises(Unexpressible):
        config_entry(LOCAL, "crush")
    safe = server_from_values(
        "t", remote={"type": "http", "url": "https://x/$v", "headers": {"H": "a$b ${T}"}}
    )
    assert config_entry(safe, "crush") == {
        "type": "http",
        "url": r"https://x/\$v",
        "headers": {"H": r"a\$b ${T}"},
    }
