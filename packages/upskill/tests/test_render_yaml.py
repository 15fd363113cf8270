"""The frontmatter YAML emitter: deterministic, minimal quoting, round-trips."""

from __future__ import annotations

import datetime
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from upskill.render.yaml_emit import NON_YAML_CHARS, emit_mapping, needs_double, scalar

LOADER = YAML(typ="safe", pure=True)


def test_quotes_only_when_needed() -> None:
    assert scalar("src/api/**/*.ts") == "src/api/**/*.ts"
    assert scalar("**") == "'**'"
    assert scalar("no") == "'no'"
    assert scalar("Yes") == "'Yes'"
    assert scalar("1.0") == "'1.0'"
    assert scalar("0x1F") == "'0x1F'"
    assert scalar("2024-01-01") == "'2024-01-01'"
    assert scalar("a: b") == "'a: b'"
    assert scalar("a #b") == "'a #b'"
    assert scalar("it's") == "it's"
    assert scalar("'quoted'") == "'''quoted'''"
    assert scalar("") == "''"
    assert scalar(" pad") == "' pad'"
    assert scalar("line\nbreak") == '"line\\nbreak"'
    assert scalar("#8b5cf6") == "'#8b5cf6'"


def test_block_style_like_upstream() -> None:
    data = {"name": "x", "paths": ["a", "b"], "permission": {"read": "allow"}, "e": [], "m": {}}
    assert emit_mapping(data) == (
        "name: x\npaths:\n- a\n- b\npermission:\n  read: allow\ne: []\nm: {}\n"
    )


yaml_keys = st.text(min_size=1, max_size=8).filter(lambda s: s.strip() == s and s)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False, allow_infinity=True)
    | st.dates(min_value=datetime.date(1900, 1, 1))
    | st.text(max_size=20)
    | st.sampled_from(
        ["no", "yes", "on", "~", "null", "1e3", "0o17", ".5", "-", "- x", "**", "a: b"]
    )
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(yaml_keys, inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(yaml_keys, values, max_size=5))
def test_round_trip(data: dict[str, Any]) -> None:
    text = emit_mapping(data)
    loaded = LOADER.load(text) if text else {}
    assert loaded == data
    assert emit_mapping(data) == text


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"])) | st.text())
def test_needs_double_is_the_character_class_it_stands_for(value: str) -> None:
    expected = re.search(NON_YAML_CHARS, value) is not None
    assert needs_double(value) is expected
    for ch in value:
        assert needs_double(ch) is (re.fullmatch(NON_YAML_CHARS, ch) is not None)


def test_needs_double_at_the_ascii_edges() -> None:
    assert [c for c in map(chr, range(128)) if needs_double(c)] == [
        *map(chr, range(0x20)),
        "\x7f",
    ]
    assert needs_double("caf\u00e9\x85") and not needs_double("caf\u00e9")
