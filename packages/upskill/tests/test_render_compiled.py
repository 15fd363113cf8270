"""The compiled instructions file: agents-md-compiler's byte format, read back exactly.

`parse_sections` is what lets a run rebuild `AGENTS.md` from one changed rule, so it
must return exactly what `compile_document` was given, and nothing for any file that
is not byte for byte such a document (a hand edit must never be read as sections).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from upskill.lifecycle.compiled import Block, split_block
from upskill.render.compiled import compile_document, parse_sections, section_bytes

NAMES = st.from_regex(r"\A[a-z][a-z0-9-]{0,20}\Z")
BODIES = st.text(st.characters(blacklist_categories=["Cs"]), max_size=200).map(section_bytes)
SECTIONS = st.dictionaries(NAMES, BODIES, min_size=1, max_size=6)


@given(SECTIONS)
def test_sections_round_trip(sections: dict[str, bytes]) -> None:
    assert parse_sections(compile_document(sections)) == sections


@given(SECTIONS, st.data())
def test_any_one_byte_edit_is_not_read_as_sections(sections: dict[str, bytes], data) -> None:  # type: ignore[no-untyped-def]
    document = compile_document(sections)
    at = data.draw(st.integers(0, len(document) - 1))
    byte = data.draw(st.integers(0, 255).filter(lambda b: b != document[at]))
    edited = document[:at] + bytes([byte]) + document[at + 1 :]
    assert parse_sections(edited) is None


def test_sections_are_ordered_by_name_and_end_in_one_newline() -> None:
    document = compile_document({"b": section_bytes("Second.\n\n\n"), "a": section_bytes("First.")})
    assert document.index(b"id=a ") < document.index(b"id=b ")
    assert b"First.\n<!-- agents-md-compiler:module-end id=a -->\n" in document
    assert b"Second.\n<!-- agents-md-compiler:module-end id=b -->\n" in document


def test_a_foreign_file_is_not_sections() -> None:
    assert parse_sections(b"# Team\n\nRun the tests.\n") is None
    assert parse_sections(b"") is None


def test_split_block() -> None:
    data = b"# Team\n<!-- upskill:begin -->\nold\n<!-- upskill:end -->\ntail\n"
    assert split_block(data) == Block(
        b"# Team\n<!-- upskill:begin -->\n", b"old\n", b"<!-- upskill:end -->\ntail\n"
    )
    assert split_block(data.replace(b"tail", b"<!-- upskill:begin -->")) is None  # twice
    assert split_block(b"<!-- upskill:end -->\n<!-- upskill:begin -->\n") is None  # reversed
    assert split_block(b"# Team\n") is None


@given(st.binary(max_size=80), st.binary(max_size=80), st.binary(max_size=80))
def test_split_block_keeps_every_byte(head: bytes, content: bytes, tail: bytes) -> None:
    data = head + b"\n<!-- upskill:begin -->\n" + content + b"\n<!-- upskill:end -->\n" + tail
    block = split_block(data)
    if block is not None:
        assert block.head + block.content + block.tail == data
