"""Directive processing (format spec §6): properties over generated bodies."""

from __future__ import annotations

import re
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
def bodies(
    draw: st.DrawFn, most_blank: int = 3
) -> tuple[str, list[tuple[bool, tuple[str, ...], list[str]]]]:
    """Plain lines, fences with blank lines inside, and directive blocks, with runs
    of up to `most_blank` blank lines (empty or spaces) between them."""
    parts: list[str] = []
    found = []

    def blanks() -> list[str]:
        return [draw(st.sampled_from(["", "  "]))] * draw(st.integers(0, most_blank))

    for index in range(draw(st.integers(1, 5))):
        parts.extend(blanks())
        parts.append(f"plain {index}")
        if draw(st.booleans()):
            parts.extend(["```text", *([""] * draw(st.integers(1, 3))), f"code {index}", "```"])
        parts.extend(blanks())
        if draw(st.booleans()):
            block = draw(blocks(index))
            negated, names, lines = block
            marker = ("!" if negated else "") + ",".join(names)
            parts.append(f"<!-- @client:{marker} -->")
            parts.extend(blanks())
            parts.extend(lines)
            parts.extend(blanks())
            parts.append("<!-- @endclient -->")
            parts.extend(blanks())
            found.append(block)
    return "\n".join(parts) + "\n", found


def _runs_outside_fences(text: str) -> list[int]:
    """Lengths of the runs of blank lines outside fenced blocks."""
    runs: list[int] = []
    count = 0
    fenced = False
    for line in text.split("\n")[:-1]:
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and not line.strip():
            count += 1
            continue
        if count:
            runs.append(count)
        count = 0
    return [*runs, count] if count else runs


@settings(max_examples=150, deadline=None)
@given(bodies(), st.sampled_from(("claude", "copilot", "opencode")))
def test_balanced_bodies_keep_every_kept_line_and_add_no_blank_run(
    generated: tuple[str, list[tuple[bool, tuple[str, ...], list[str]]]], family: str
) -> None:
    body, found = generated
    assert validate_directives(body, PATH) == []
    out = process_directives(body, family, PATH)
    assert "@client" not in out and "@endclient" not in out
    for negated, names, lines in found:
        included = (family in names) != negated
        for line in lines:
            assert (line in out.split("\n")) == included
    # every non-blank line the family sees, in order, and nothing else
    excluded = {
        line for negated, names, lines in found if (family in names) == negated for line in lines
    }
    expected = [
        line
        for line in body.split("\n")
        if line.strip() and "@client" not in line and "@endclient" not in line
        if line not in excluded
    ]
    assert [line for line in out.split("\n") if line.strip()] == expected
    # no blank run longer than the longest the author wrote; fences untouched;
    # no blank lines at the end unless the author ended with some
    runs = _runs_outside_fences(body)
    assert max(_runs_outside_fences(out), default=0) <= max(runs, default=0)
    assert out.count("```text\n\n") == body.count("```text\n\n")
    if body.split("\n")[-2].strip():
        assert not out.endswith("\n\n")
    assert process_directives(out, family, PATH) == out


@settings(max_examples=150, deadline=None)
@given(bodies(most_blank=1), st.sampled_from(FAMILIES))
def test_removing_blocks_from_a_tidy_body_leaves_no_blank_line_runs(
    generated: tuple[str, list[tuple[bool, tuple[str, ...], list[str]]]], family: str
) -> None:
    """Where the author wrote no run of blank lines (MD012), removal makes none."""
    body = re.sub(r"\n(?: *\n){2,}", "\n\n", generated[0])
    assert max(_runs_outside_fences(body), default=0) <= 1
    out = process_directives(body, family, PATH)
    assert max(_runs_outside_fences(out), default=0) <= 1


@settings(max_examples=100, deadline=None)
@given(bodies())
def test_a_body_without_directives_is_returned_unchanged(
    generated: tuple[str, list[tuple[bool, tuple[str, ...], list[str]]]],
) -> None:
    body, found = generated
    if found:
        return
    for family in FAMILIES:
        assert process_directives(body, family, PATH) is body


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
    """Runs that meet across removed lines become the longer of the two; the
    author's own runs (the leading two, the double one inside) stay."""
    body = (
        "\n\nintro\n\n<!-- @client:!opencode -->\n\nnot opencode\n\n\nmore\n\n"
        "<!-- @endclient -->\n\nend\n"
    )
    assert process_directives(body, "claude", PATH) == (
        "\n\nintro\n\nnot opencode\n\n\nmore\n\nend\n"
    )
    assert process_directives(body, "opencode", PATH) == "\n\nintro\n\nend\n"


def test_a_removed_block_at_either_end_leaves_no_blank_lines_there() -> None:
    body = "<!-- @client:claude -->\nfirst\n<!-- @endclient -->\n\nmiddle\n\n"
    body += "<!-- @client:claude -->\nlast\n<!-- @endclient -->\n"
    assert process_directives(body, "opencode", PATH) == "\nmiddle\n"
    assert process_directives(body, "claude", PATH) == "first\n\nmiddle\n\nlast\n"


def test_directly_adjacent_blocks_keep_the_paragraph_break() -> None:
    body = "a\n\n<!-- @client:claude -->\nb\n<!-- @endclient -->\n<!-- @client:codex -->\n"
    body += "c\n<!-- @endclient -->\n\nd\n"
    assert process_directives(body, "opencode", PATH) == "a\n\nd\n"
    assert process_directives(body, "codex", PATH) == "a\n\nc\n\nd\n"
