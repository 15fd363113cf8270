"""The frontmatter YAML emitter: deterministic, minimal quoting, round-trips."""

from __future__ import annotations

import datetime
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from upskill.render.yaml_emit import emit_mapping, scalar

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
