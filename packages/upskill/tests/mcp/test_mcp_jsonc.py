"""The JSONC editor: semantics match json, untouched bytes stay untouched."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from upskill import jsonc

keys = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=8)
scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=10)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
    max_leaves=8,
)
documents = st.dictionaries(keys, values, max_size=4)


def render(doc: dict[str, object], style: int) -> str:
    if style == 0:
        return json.dumps(doc)
    text = json.dumps(doc, indent=2 if style == 1 else "\t")
    if style == 2 and doc:
        text = text.replace("{\n", '{\n\t// a comment, with { braces } and "quotes"\n', 1)
    return text + "\n"


@settings(max_examples=150, deadline=None)
@given(documents, st.sampled_from([0, 1, 2]), keys, keys, values)
def test_set_then_delete_round_trips(
    doc: dict[str, object], style: int, root: str, name: str, value: object
) -> None:
    text = render(doc, style)
    assert jsonc.loads(text) == doc
    holder = doc.get(root)
    if root in doc and not isinstance(holder, dict):
        with pytest.raises(jsonc.JsoncError, match="is not an object"):
            jsonc.set_member(text, (root, name), value)
        return
    edited = jsonc.set_member(text, (root, name), value)
    expected = json.loads(json.dumps(doc))
    expected.setdefault(root, {})[name] = value
    assert jsonc.loads(edited) == expected
    assert jsonc.set_member(edited, (root, name), value) == edited  # idempotent
    if style == 2 and doc:
        assert "// a comment, with { braces }" in edited
    if isinstance(holder, dict) and name not in holder:
        assert jsonc.delete_member(edited, (root, name)) == text  # exact bytes back


def render_array(items: list[str], style: int) -> str:
    """`{"plugin": items}` on one line, spread over lines, or with a comment inside the array."""
    if style == 0:
        return json.dumps({"plugin": items})
    text = json.dumps({"plugin": items}, indent=2)
    if style == 2:
        text = text.replace("[", "[ /* mine, with [ brackets ] */", 1)
    return text + "\n"


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.text(max_size=6), max_size=4),
    st.text(max_size=6),
    st.sampled_from([0, 1, 2]),
)
def test_array_append_and_remove(items: list[str], extra: str, style: int) -> None:
    text = render_array(items, style)
    appended = jsonc.append_item(text, ("plugin",), extra)
    assert jsonc.array_at(appended, ("plugin",)) == (items if extra in items else [*items, extra])
    assert jsonc.append_item(appended, ("plugin",), extra) == appended
    removed = jsonc.remove_item(appended, ("plugin",), extra)
    assert jsonc.loads(removed) == {"plugin": [i for i in items if i != extra]}
    if extra not in items:
        assert removed == text  # exact bytes back
    if style == 2:
        assert "/* mine, with [ brackets ] */" in removed
    elif all(i == extra for i in items):  # emptied, no comment inside: closed up
        assert removed == render_array([], style)


@pytest.mark.parametrize(
    ("text", "keys", "expected"),
    [
        ('{"a": ["x"]}', ("a",), '{"a": []}'),
        ('{"a": [ "x" ]}', ("a",), '{"a": []}'),
        ('{"a": ["x", "y"]}', ("a",), '{"a": ["y"]}'),
        ('{\n  "a": [\n    "x",\n    "x",\n  ],\n}\n', ("a",), '{\n  "a": [],\n}\n'),
        ('{\n  "a": [\n    "x" // why\n  ]\n}\n', ("a",), '{\n  "a": []\n}\n'),
        (
            '{\n  "a": [\n    // keep\n    "x"\n  ]\n}\n',
            ("a",),
            '{\n  "a": [\n    // keep\n  ]\n}\n',
        ),
        ('{"a": [/* keep */ "x"]}', ("a",), '{"a": [/* keep */ ]}'),
        ('{"a": [\n  "x" /* keep */\n]}', ("a",), '{"a": [\n   /* keep */\n]}'),
        (
            '{\n  "o": {\n    "b": [\n      "x"\n    ],\n    "c": [\n      "x"\n    ]\n  }\n}\n',
            ("o", "b"),
            '{\n  "o": {\n    "b": [],\n    "c": [\n      "x"\n    ]\n  }\n}\n',
        ),
        ('{"a": [\n]}', ("a",), '{"a": [\n]}'),  # nothing removed: nothing touched
        ('{"a": ["y"]}', ("b",), '{"a": ["y"]}'),
    ],
)
def test_remove_item_exact_bytes(text: str, keys: tuple[str, ...], expected: str) -> None:
    assert jsonc.remove_item(text, keys, "x") == expected


def test_removing_the_last_instruction_leaves_an_empty_array_on_one_line() -> None:
    text = '{"instructions": [\n    ".opencode/rules/**/*.md"\n  ]}'
    glob = ".opencode/rules/**/*.md"
    assert jsonc.remove_item(text, ("instructions",), glob) == '{"instructions": []}'


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"o": {"k": 1}}', '{"o": {}}'),
        ('{\n  "o": {\n    "k": 1\n  }\n}\n', '{\n  "o": {}\n}\n'),
        ('{\n  "o": {\n    "k": 1,\n  }\n}\n', '{\n  "o": {}\n}\n'),
        ('{\n  "o": {\n    // keep\n    "k": 1\n  }\n}\n', '{\n  "o": {\n    // keep\n  }\n}\n'),
        ('{\n  "o": {\n    "k": 1,\n    "j": 2\n  }\n}\n', '{\n  "o": {\n    "j": 2\n  }\n}\n'),
    ],
)
def test_delete_member_closes_an_emptied_object_alike(text: str, expected: str) -> None:
    assert jsonc.delete_member(text, ("o", "k")) == expected


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("", 1, "unexpected end of input"),
        ('{"a": 1', 1, "expected ',' or '}'"),
        ('{\n"a": tru}', 2, "unexpected 'tru'"),
        ('{\n\n"a": "x\n"}', 3, "unterminated string"),
        ("{} []", 1, "trailing content"),
        ("{/* open", 1, "unterminated comment"),
        ("{a: 1}", 1, "expected a string key"),
    ],
)
def test_malformed_input_names_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(jsonc.JsoncError) as err:
        jsonc.loads(text)
    assert err.value.line == line
    assert err.value.message == f"invalid JSON: {message}"


def test_trailing_commas_and_comments_are_accepted() -> None:
    assert jsonc.loads('{"a": [1, 2,], /* x */ "b": {"c": null,},}') == {
        "a": [1, 2],
        "b": {"c": None},
    }
