"""children.plan_child on its own: the request's shape and the subset rules."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cortexfs.children import plan_child
from cortexfs.errors import BadInput, Denied
from cortexfs.launch.spec import AgentRef, AgentSpec, parse_spec


def _parent(*rules: str, tools: str = "fs.read\n") -> AgentSpec:
    controls = {"owner": "1000\n", "uid": "1000\n", "gid": "1000\n", "groups": "5\n6\n",
                "perm": "rwx\n", "label": "u:r:p_t:s0\n", "tools": tools, "iso": "0\n",
                "mount": "/src\t/work\trw\t-\n/ro\t/ro\tro\tnosuid\n",
                "policy": "".join(f"allow p_t {r}\n" for r in rules)}  # fmt: skip
    return parse_spec(AgentRef("p", "/agent/p"), controls)


def test_shorthands_map_to_rules_and_defaults_follow_the_parent() -> None:
    parent = _parent("agent:k create", "shared:s read", "model:debug/echo use",
                     "tool:fs.read execute", "mount:work read")  # fmt: skip
    child = plan_child(parent, {
        "name": "k", "tools": ["fs.read"], "shared": {"s": ["read"]}, "model": ["debug/echo"],
        "policy": ["allow p_t mount:work read"], "mount": [["/src/sub", "/work", "ro"]],
    })  # fmt: skip
    assert child.controls == {
        "uid": "1000\n", "gid": "1000\n", "groups": "", "label": "u:r:p_t:s0\n",
        "perm": "rwx\n", "iso": "0\n", "tools": "fs.read\n",
        "mount": "/src/sub\t/work\tro\t-\n",
        "policy": "allow p_t mount:work read\nallow p_t tool:fs.read execute\n"
                  "allow p_t model:debug/echo use\nallow p_t shared:s read\n",
        "parent": "agent:p\n", "life": "owned\n",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("request_", "error", "message"),
    [
        ({"name": "k", "colour": 1}, BadInput, "unknown fields: colour"),
        ({"name": "../k"}, BadInput, "is not an agent name"),
        ({"name": "k", "policy": ["allow x_t tool:a execute"]}, BadInput, "is not a rule for p_t"),
        ({"name": "k", "policy": ["# no"]}, BadInput, "policy line 1"),
        ({"name": "k", "life": "detached"}, BadInput, "life must be one of owned, temp"),
        ({"name": "k", "shared": {"s": ["write"]}}, Denied, "allow p_t shared:s write, which"),
        ({"name": "k", "tools": ["fs.write"]}, Denied, "allow p_t tool:fs.write execute"),
        ({"name": "k", "mount": [["/ro", "/ro", "rw"]]}, Denied, "/ro is read-only"),
        ({"name": "k", "mount": [["/srcx", "/work", "ro"]]}, Denied, "not a mount of the parent"),
        ({"name": "k", "groups": [5, 7]}, Denied, "groups 7 are not the parent's"),
        ({"name": "j"}, Denied, "does not allow p_t agent:j create"),
    ],
)
def test_refusals(request_: dict, error: type, message: str) -> None:
    parent = _parent("agent:k create", "shared:s read")
    with pytest.raises(error, match=message):
        plan_child(parent, request_)


CLASSES = {"tool": "execute", "shared": "read", "model": "use", "mount": "write",
           "session": "resume", "network": "connect"}  # fmt: skip
RULES = [f"{c}:{'default' if c == 'network' else n} {p}" for c, p in CLASSES.items()
         for n in ("a", "b")]  # fmt: skip


@given(parent=st.sets(st.sampled_from(RULES)), child=st.sets(st.sampled_from(RULES)))
def test_a_child_rule_is_accepted_exactly_when_the_parent_holds_it(
    parent: set[str], child: set[str]
) -> None:
    spec = _parent("agent:k create", *sorted(parent))
    request = {"name": "k", "label": "u:r:k_t:s0",
               "policy": [f"allow k_t {r}" for r in sorted(child)]}  # fmt: skip
    if child <= parent:
        made = plan_child(spec, request)
        assert made.controls["policy"] == "".join(f"allow k_t {r}\n" for r in sorted(child))
    else:
        with pytest.raises(Denied, match="which agent p policy does not allow"):
            plan_child(spec, request)
