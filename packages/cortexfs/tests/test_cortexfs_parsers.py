"""Pure parsers: names, policy v0, perm, control values, mount table, object headers."""

from __future__ import annotations

import errno

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cortexfs.controls import MAX_CONTROL_BYTES, check_control
from cortexfs.errors import FsRefusal
from cortexfs.mount_table import parse_mount_table
from cortexfs.names import is_valid_name, name_problem
from cortexfs.objects import ObjectClass, ObjectHeader, parse_object, render_object
from cortexfs.perm import parse_perm, perm_from_mode
from cortexfs.policy import CLASS_PERMISSIONS, PolicyError, Rule, parse_policy

NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
names = st.builds(
    lambda head, tail: head + tail,
    st.sampled_from(NAME_CHARS),
    st.text(alphabet=NAME_CHARS + "_+-", max_size=40),
)


@pytest.mark.parametrize("name", ["a", "coder", "calc.add", "x_y+z-1", "A" * 64, "9lives"])
def test_valid_names(name: str) -> None:
    assert name_problem(name) is None


@pytest.mark.parametrize(
    "name", ["", "-x", ".hidden", "a/b", "a b", "A" * 65, "x.sock", "x.d", "a..b", "é", "a\n"]
)
def test_invalid_names(name: str) -> None:
    assert name_problem(name) is not None


@settings(max_examples=200, deadline=None)
@given(names)
def test_generated_names_are_valid(name: str) -> None:
    assert is_valid_name(name)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=70))
def test_names_never_contain_separators_or_dotdot(text: str) -> None:
    if is_valid_name(text):
        assert "/" not in text and ".." not in text and "\n" not in text
        assert 1 <= len(text) <= 64


def test_policy_parses_rules() -> None:
    policy = parse_policy(
        "allow coder_t tool:echo execute\n\nallow coder_t network:default connect\n"
    )
    assert policy.allows("coder_t", "tool", "echo", "execute")
    assert policy.allows("coder_t", "network", "default", "connect")
    assert not policy.allows("coder_t", "tool", "echo2", "execute")
    assert not policy.allows("other_t", "tool", "echo", "execute")
    assert parse_policy("").rules == frozenset()


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("# comment\n", "exactly"),
        ("deny a_t tool:x execute\n", "unknown verb"),
        ("allow a_t tool:x\n", "exactly"),
        ("allow a_t tool:x execute extra\n", "exactly"),
        ("allow a_t  tool:x execute\n", "exactly"),
        ("allow a_t memory:x read\n", "unknown class"),
        ("allow a_t tool:x run\n", "no permission"),
        ("allow a_t tool:* execute\n", "bad object name"),
        ("allow a_t network:example.com connect\n", "only name 'default'"),
        ("allow a_t toolx execute\n", "not <class>:<name>"),
        ("allow a/t tool:x execute\n", "bad subject"),
    ],
)
def test_policy_errors(text: str, fragment: str) -> None:
    with pytest.raises(PolicyError) as info:
        parse_policy(text)
    assert fragment in str(info.value)
    assert str(info.value).startswith("line 1:")


rules = st.builds(
    lambda subject, cls, name, data: Rule(
        subject, cls, "default" if cls == "network" else name,
        data.draw(st.sampled_from(sorted(CLASS_PERMISSIONS[cls]))),
    ),
    st.from_regex(r"[a-z][a-z0-9_]{0,10}_t", fullmatch=True),
    st.sampled_from(sorted(CLASS_PERMISSIONS)),
    names,
    st.data(),
)  # fmt: skip


@settings(max_examples=100, deadline=None)
@given(st.lists(rules, max_size=8))
def test_policy_render_parse_roundtrip(items: list[Rule]) -> None:
    text = "".join(rule.render() + "\n" for rule in items)
    assert parse_policy(text).rules == frozenset(items)
    # Parsing is idempotent: rendering the parsed rules gives the same rule set.
    again = "".join(r.render() + "\n" for r in sorted(parse_policy(text).rules, key=str))
    assert parse_policy(again) == parse_policy(text)


@settings(max_examples=50, deadline=None)
@given(st.sampled_from([0o000, 0o100, 0o200, 0o400, 0o500, 0o600, 0o700, 0o755]))
def test_perm_roundtrip(mode: int) -> None:
    perm = perm_from_mode(mode)
    assert parse_perm(perm.render()) == perm
    assert perm.owner_bits == mode & 0o700


@pytest.mark.parametrize("text", ["rw", "rwxx", "xwr", "r-X", "---\n"])
def test_perm_rejects(text: str) -> None:
    with pytest.raises(ValueError):
        parse_perm(text)


def refusal(name: str, data: bytes) -> int:
    try:
        check_control(name, data)
    except FsRefusal as exc:
        return exc.errno
    return 0


@pytest.mark.parametrize(
    ("name", "data", "expected"),
    [
        ("status", b"running\n", 0),
        ("status", b"running", errno.EINVAL),
        ("status", b"", errno.EINVAL),
        ("status", b"a\nb\n", errno.EINVAL),
        ("pid", b"", 0),
        ("pid", b"12\n", 0),
        ("pid", b"012\n", errno.EINVAL),
        ("uid", b"1000\n", 0),
        ("uid", b"x\n", errno.EINVAL),
        ("iso", b"1\n", 0),
        ("iso", b"2\n", errno.EINVAL),
        ("perm", b"r-x\n", 0),
        ("groups", b"", 0),
        ("groups", b"1\n\n2\n", errno.EINVAL),
        ("groups", b"27\n4300\n", 0),
        ("groups", b"wheel\n", errno.EINVAL),
        ("groups", b"-1\n", errno.EINVAL),
        ("tools", b"calc.add\necho\n", 0),
        ("tools", b"../x\n", errno.EINVAL),
        ("tools", b"a/b\n", errno.EINVAL),
        ("env", b"LD_PRELOAD=/tmp/x.so\n", errno.EINVAL),
        ("env", b"LD_LIBRARY_PATH=/tmp\n", errno.EINVAL),
        ("env", b"CTX_AGENT=coder\n", errno.EINVAL),
        ("env", b"OLD_LD_PRELOAD=x\n", 0),
        ("driver", b"LD_PRELOAD=x\n", 0),
        ("label", b"user_u:agent_r:coder_t:s0\n", 0),
        ("label", b"nolabel\n", errno.EINVAL),
        ("label", b"u:r::s0\n", errno.EINVAL),
        ("label", b"u:r:a b:s0\n", errno.EINVAL),
        ("env", b"A=1\nB_2=x=y\n", 0),
        ("env", b"=1\n", errno.EINVAL),
        ("meta.json", b'{"a": 1}\n', 0),
        ("meta.json", b"{\n", errno.EINVAL),
        ("policy", b"allow a_t tool:x execute\n", 0),
        ("mount", b"/srv/data\t/data\tro\tbind,nosuid\n", 0),
        ("mount", b"/srv\t/usr\tro\t-\n", errno.EINVAL),
        ("mount", b"/srv\t/lib64\trw\t-\n", errno.EINVAL),
        ("mount", b"srv\t/data\tro\t-\n", errno.EINVAL),
        ("mount", b"/srv\t/data\trx\t-\n", errno.EINVAL),
        ("mount", b"/srv\t/data\tro\tloud\n", errno.EINVAL),
        ("description", b"free text\nmore\n", 0),
        ("label", b"\xff\n", errno.EILSEQ),
        ("label", b"a\x00\n", errno.EINVAL),
        ("description", b"a" * (MAX_CONTROL_BYTES + 1), errno.EMSGSIZE),
    ],
)
def test_control_values(name: str, data: bytes, expected: int) -> None:
    assert refusal(name, data) == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(st.from_regex(r"[A-Za-z0-9_./:-]{1,20}", fullmatch=True), max_size=6))
def test_list_controls_accept_lines(values: list[str]) -> None:
    data = "".join(f"{v}\n" for v in values).encode()
    assert refusal("path", data) == 0


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=2**32 - 1), max_size=6))
def test_groups_accept_unsigned_ids(values: list[int]) -> None:
    assert refusal("groups", "".join(f"{v}\n" for v in values).encode()) == 0


def test_mount_table_entries() -> None:
    (entry,) = parse_mount_table("/srv/data\t/data\trw\tbind,nodev\n")
    assert (entry.source, entry.target, entry.writable, entry.options) == (
        "/srv/data", "/data", True, ("bind", "nodev"),
    )  # fmt: skip


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(list(ObjectClass)), names)
def test_object_header_roundtrip(cls: ObjectClass, name: str) -> None:
    header = ObjectHeader("/usr/bin/cortexfs-object-runner", cls, name)
    assert parse_object(render_object(header)) == header


@pytest.mark.parametrize(
    "data",
    [
        b"#!/bin/sh\n# cortexfs.object=tool\n# cortexfs.name=x\n",
        b"#!/usr/bin/cortexfs-object-runner\n# cortexfs.object=memory\n# cortexfs.name=x\n",
        b"#!/usr/bin/cortexfs-object-runner\n# cortexfs.object=tool\n# cortexfs.name=../x\n",
        b"#!/usr/bin/cortexfs-object-runner\n# cortexfs.object=tool\n",
        b"#!/usr/bin/cortexfs-object-runner\n# cortexfs.object=tool\n# cortexfs.name=x\nrm -rf /\n",
        b"#!cortexfs-object-runner\n# cortexfs.object=tool\n# cortexfs.name=x\n",
    ],
)
def test_object_header_rejects(data: bytes) -> None:
    with pytest.raises(ValueError):
        parse_object(data)


def _depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab\n\u00e9', max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(alphabet='[]{}"\\k', max_size=4), inner, max_size=4)
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_json_depth_counts_nesting_outside_strings(value: object) -> None:
    import json

    from cortexfs.json_bounds import json_depth, loads_bounded

    text = json.dumps(value)
    assert json_depth(text) == _depth(value)
    assert json_depth(json.dumps(value, ensure_ascii=False, indent=1)) == _depth(value)
    assert loads_bounded(text) == value


def test_deep_json_is_a_value_error_not_recursion() -> None:
    from cortexfs.json_bounds import MAX_DEPTH, loads_bounded

    assert loads_bounded("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(ValueError, match=f"JSON nested 65 deep; at most {MAX_DEPTH} levels"):
        loads_bounded("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    with pytest.raises(ValueError, match="JSON nested 30000 deep"):
        loads_bounded("[" * 30000)
    with pytest.raises(FsRefusal) as refused:
        check_control("meta.json", b"[" * 30000)
    assert refused.value.errno == errno.EINVAL
