"""Directive processing (format spec §6): properties over generated bodies."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from upskill.clients import FAMILIES
from upskill.errors import FormatError
from upskill.format import process_directives, validate_directives

FAMILIES_TEXT = ", ".join(FAMILIES)

PATH = Path("SKILL.md")
FAMILIES = ("claude", "copilot", "codex", "opencode")

clients = st.lists(st.sampled_from(FAMILIES), min_size=1, max_size=3, unique=True)
words = st.text(alphabet="abcdefghij ", min_size=1, max_size=12).map(lambda s: s.strip() or "x")


@st.composite
def blocks(draw: st.DrawFn, number: int) -> tuple[bool, tuple[str, ...], list[str]]:
    negated = draw(st.booleans())
    names = tuple(draw(clients))
    lines = [f"keep {number}.{i} {draw(words)}" for i in range(draw(st.integers(1, 3)))]
    return negated, names, lines


@st.composite
def bodies(draw: st.DrawFn) -> tuple[str, list[tuple[bool, tuple[str, ...], list[str]]]]:
    parts: list[str] = []
    found = []
    for index in range(draw(st.integers(1, 5))):
        parts.append(f"plain {index}")
        parts.extend([""] * draw(st.integers(0, 3)))
        if draw(st.booleans()):
            block = draw(blocks(index))
            negated, names, lines = block
            marker = ("!" if negated else "") + ",".join(names)
            parts.append(f"<!-- @client:{marker} -->")
            parts.extend([""] * draw(st.integers(0, 2)))
            parts.extend(lines)
            parts.extend([""] * draw(st.integers(0, 2)))
            parts.append("<!-- @endclient -->")
            parts.extend([""] * draw(st.integers(0, 3)))
            found.append(block)
    return "\n".join(parts) + "\n", found


@settings(max_examples=120, deadline=None)
@given(bodies(), st.sampled_from(("claude", "copilot", "opencode")))
def test_balanced_bodies_process_cleanly(
    generated: tuple[str, list[tuple[bool, tuple[str, ...], list[str]]]], family: str
) -> None:
    body, found = generated
    assert validate_directives(body, PATH) == []
    out = process_directives(body, family, PATH)
    assert "@client" not in out and "@endclient" not in out
    assert "\n\n\n" not in out and not out.startswith("\n")
    for negated, names, lines in found:
        included = (family in names) != negated
        for line in lines:
            assert (line in out.split("\n")) == included
    assert process_directives(out, family, PATH) == out


@settings(max_examples=60, deadline=None)
@given(bodies())
def test_dropping_a_close_is_reported(
    generated: tuple[str, list[tuple[bool, tuple[str, ...], list[str]]]],
) -> None:
    body, found = generated
    if not found:
        return
    lines = body.split("\n")
    last_close = max(i for i, line in enumerate(lines) if line == "<!-- @endclient -->")
    broken = "\n".join(lines[:last_close] + lines[last_close + 1 :])
    errors = validate_directives(broken, PATH)
    assert [e.message for e in errors] == ["unclosed directive (missing '<!-- @endclient -->')"]
    with pytest.raises(FormatError):
        process_directives(broken, "claude", PATH)


@settings(max_examples=60, deadline=None)
@given(bodies(), st.sampled_from(FAMILIES))
def test_nesting_is_reported(
    generated: tuple[str, list[tuple[bool, tuple[str, ...], list[str]]]], inner: str
) -> None:
    body, found = generated
    if not found:
        return
    lines = body.split("\n")
    first_open = next(i for i, line in enumerate(lines) if line.startswith("<!-- @client:"))
    nested = [*lines[: first_open + 1], f"<!-- @client:{inner} -->", *lines[first_open + 1 :]]
    errors = validate_directives("\n".join(nested), PATH, first_line=7)
    assert errors[0] == FormatError(
        f"nested directive (block opened on line {first_open + 7} is still open)",
        path=PATH,
        line=first_open + 8,
    )


def test_stray_close_and_unknown_client_are_all_reported_with_lines() -> None:
    body = "a\n<!-- @endclient -->\n<!-- @client:acme,claude -->\nb\n<!-- @endclient -->\n"
    assert [str(e) for e in validate_directives(body, PATH, first_line=10)] == [
        "SKILL.md:11: '<!-- @endclient -->' without an open directive",
        f"SKILL.md:12: unknown client 'acme' in directive (known: {FAMILIES_TEXT})",
    ]


def test_marker_not_on_own_line_is_an_error() -> None:
    errors = validate_directives("text <!-- @client:claude --> more\n", PATH)
    assert [str(e) for e in errors] == [
        "SKILL.md:1: directive markers must be on their own line, as "
        "'<!-- @client:<list> -->' or '<!-- @endclient -->'"
    ]


def test_empty_list_and_double_negation() -> None:
    errors = validate_directives("<!-- @client: -->\nx\n<!-- @endclient -->\n", PATH)
    assert [e.message for e in errors] == ["directive has an empty client list"]
    errors = validate_directives("<!-- @client:claude,!copilot -->\nx\n<!-- @endclient -->\n", PATH)
    assert [e.message for e in errors] == [
        "'!' negates the whole list and may appear only once, at its start"
    ]


def test_markers_inside_fences_are_content() -> None:
    body = (
        "````md\n<!-- @client:claude -->\n\n\n````\n\n"
        "<!-- @client:!claude -->\nx\n<!-- @endclient -->\n"
    )
    assert validate_directives(body, PATH) == []
    assert process_directives(body, "claude", PATH) == "````md\n<!-- @client:claude -->\n\n\n````\n"


def test_negation_and_blank_collapse_exact() -> None:
    body = (
        "\n\nintro\n\n\n<!-- @client:!opencode -->\n\nnot opencode\n\n"
        "<!-- @endclient -->\n\n\nend\n"
    )
    assert process_directives(body, "claude", PATH) == "intro\n\nnot opencode\n\nend\n"
    assert process_directives(body, "opencode", PATH) == "intro\n\nend\n"
