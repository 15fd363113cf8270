"""schema_check against the jsonschema reference implementation (Draft 2020-12), on
generated schemas and instances, plus the messages a caller sees."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from cortexfs.schema_check import SchemaMismatch, check_arguments

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5), st.sampled_from([0.5, 1.0, -2.0, 3.25]),
    st.sampled_from(["", "a", "ab", "b1", "xyz", "aaaa"]),
)  # fmt: skip
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["a", "b", "c", "x1"]), inner, max_size=3),
    ),
    max_leaves=8,
)
TYPES = ["null", "boolean", "object", "array", "number", "string", "integer"]
TYPE_LISTS = st.lists(st.sampled_from(TYPES), min_size=1, max_size=2, unique=True)
NUMBERS = st.sampled_from([-1, 0, 1, 2, 2.5])


def keywords(sub: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    names = st.sampled_from(["a", "b", "c"])
    name_lists = st.lists(names, max_size=2, unique=True)
    return st.fixed_dictionaries(
        {},
        optional={
            "type": st.one_of(st.sampled_from(TYPES), TYPE_LISTS),
            "enum": st.lists(SCALARS, min_size=1, max_size=3),
            "const": SCALARS,
            "properties": st.dictionaries(names, sub, max_size=2),
            "required": st.lists(names, max_size=2, unique=True),
            "additionalProperties": st.one_of(st.booleans(), sub),
            "patternProperties": st.dictionaries(st.sampled_from(["^x", "[0-9]"]), sub, max_size=1),
            "minProperties": st.integers(0, 2),
            "maxProperties": st.integers(0, 2),
            "items": sub,
            "prefixItems": st.lists(sub, max_size=2),
            "minItems": st.integers(0, 2),
            "maxItems": st.integers(0, 2),
            "uniqueItems": st.booleans(),
            "contains": sub,
            "minLength": st.integers(0, 3),
            "maxLength": st.integers(0, 3),
            "pattern": st.sampled_from(["^a", "b$", "[0-9]", "^$"]),
            "minimum": NUMBERS, "maximum": NUMBERS,
            "exclusiveMinimum": NUMBERS, "exclusiveMaximum": NUMBERS,
            "multipleOf": st.sampled_from([1, 2, 0.5]),
            "allOf": st.lists(sub, min_size=1, max_size=2),
            "anyOf": st.lists(sub, min_size=1, max_size=2),
            "oneOf": st.lists(sub, min_size=1, max_size=2),
            "not": sub,
            "if": sub, "then": sub, "else": sub,
            "dependentRequired": st.dictionaries(names, name_lists, max_size=1),
        },
    )  # fmt: skip


SCHEMAS = st.recursive(st.booleans() | st.just({}), keywords, max_leaves=6)


@settings(max_examples=600, deadline=None)
@given(schema=SCHEMAS, value=JSON)
def test_agrees_with_jsonschema(schema: Any, value: Any) -> None:
    expected = Draft202012Validator(schema).is_valid(value)
    try:
        check_arguments(schema, value)
        ours = True
    except SchemaMismatch:
        ours = False
    assert ours == expected


DEFS = {
    "$defs": {"pos": {"type": "integer", "minimum": 1}},
    "type": "object",
    "properties": {
        "n": {"$ref": "#/$defs/pos"},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["n"],
    "additionalProperties": False,
}  # fmt: skip


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({}, "$: missing required property 'n'"),
        ({"n": 0}, "$.n: must be >= 1"),
        ({"n": "1"}, "$.n: expected integer, got string"),
        ({"n": 1, "tags": ["a", 2]}, "$.tags[1]: expected string, got integer"),
        ({"n": 1, "x": True}, "$: unexpected property 'x'"),
    ],
)
def test_messages_name_the_place(value: dict[str, Any], message: str) -> None:
    with pytest.raises(SchemaMismatch) as caught:
        check_arguments(DEFS, value)
    assert str(caught.value) == message


def test_valid_and_remote_refs_pass() -> None:
    check_arguments(DEFS, {"n": 3, "tags": []})
    check_arguments({"$ref": "https://example.org/other.json"}, {"anything": 1})
