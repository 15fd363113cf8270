"""The pure layers: path classification, FS decisions, call authorization, env, projection."""

from __future__ import annotations

import errno

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cortexfs import decide
from cortexfs.authorize import AgentFacts, ToolFacts, authorize_tool, required_bits, subject_of
from cortexfs.ctx_env import ctx_env
from cortexfs.decide import Plan
from cortexfs.errors import BadInput, Denied, FsRefusal
from cortexfs.layout import Kind, classify
from cortexfs.mcp_project import plan_projection
from cortexfs.objects import ObjectClass
from cortexfs.perm import parse_perm
from cortexfs.policy import parse_policy


@pytest.mark.parametrize(
    ("path", "kind", "name", "control"),
    [
        ("/", Kind.ROOT, None, None),
        ("/status", Kind.STATUS, None, None),
        ("/memory", Kind.NOT_IN_ROOT, None, None),
        ("/agent", Kind.CLASS_DIR, None, None),
        ("/agent/coder", Kind.OBJECT, "coder", None),
        ("/agent/coder.sock", Kind.SOCK, "coder", None),
        ("/agent/coder.d", Kind.CONTROLS, "coder", None),
        ("/agent/coder.d/perm", Kind.CONTROL, "coder", "perm"),
        ("/agent/coder.d/.perm.tmp-1-ab-0", Kind.CONTROL_TEMP, "coder", "perm"),
        ("/agent/coder.d/hooks/pre.d", Kind.CONTROL_NESTED, "coder", None),
        ("/model/debug/echo", Kind.OBJECT, "debug/echo", None),
        ("/model/debug/echo.d/limit", Kind.CONTROL, "debug/echo", "limit"),
        ("/home", Kind.HOMES, None, None),
        ("/home/1000", Kind.USER_HOME, None, None),
        ("/home/01000", Kind.INVALID, None, None),
        ("/home/bob", Kind.INVALID, None, None),
        ("/home/1000/notes", Kind.HOME_FILE, None, None),
        ("/home/1000/tool/x.d/policy", Kind.CONTROL, "x", "policy"),
        ("/shared/team/queue/inbox", Kind.SHARED_FILE, None, None),
    ],
)
def test_classify(path: str, kind: Kind, name: str | None, control: str | None) -> None:
    node = classify(path)
    assert (node.kind, node.object_name, node.control) == (kind, name, control)


def test_home_tier_nodes_carry_the_uid() -> None:
    node = classify("/home/1000/tool/x.d/policy")
    assert node.home_uid == 1000
    assert node.object_class is ObjectClass.TOOL
    assert node.controls_path() == "/home/1000/tool/x.d"


def refused(action: object) -> int:
    try:
        action()  # type: ignore[operator]
    except FsRefusal as exc:
        return exc.errno
    return 0


def test_decisions_put_structure_before_authority() -> None:
    ctl = classify("/agent/a.d/cwd")
    assert decide.open_write(ctl, 5, 5) is Plan.CONTROL
    assert refused(lambda: decide.open_write(ctl, 0, 5)) == errno.EACCES
    assert refused(lambda: decide.open_write(classify("/agent/a.d/owner"), 5, 5)) == errno.EROFS
    assert refused(lambda: decide.open_write(classify("/bin/ctx"), 0, 0)) == errno.EROFS
    assert refused(lambda: decide.open_write(classify("/agent/a"), 5, 5)) == errno.EROFS
    assert refused(lambda: decide.mkdir(classify("/bin/x.d"), 0, 0)) == errno.EROFS
    assert decide.mkdir(classify("/agent/new.d"), 7, 0) is Plan.OBJECT
    assert refused(lambda: decide.mkdir(classify("/tool/new.d"), 7, 0)) == errno.EACCES
    assert decide.mkdir(classify("/tool/new.d"), 0, 0) is Plan.OBJECT
    assert refused(lambda: decide.mkdir(classify("/home/9/tool/new.d"), 8, 9)) == errno.EACCES
    assert refused(lambda: decide.mkdir(classify("/home/9"), 8, 9)) == errno.EACCES
    assert decide.mkdir(classify("/home/9"), 0, 9) is Plan.USER_HOME
    assert refused(lambda: decide.unlink(classify("/agent/a"), 5, 5, live=True)) == errno.EBUSY
    assert decide.unlink(classify("/agent/a"), 5, 5, live=False) is Plan.OBJECT_TRIPLE
    assert refused(lambda: decide.unlink(classify("/agent/a.sock"), 5, 5, False)) == errno.EROFS
    assert (
        refused(lambda: decide.rmdir(classify("/shared/s/x"), 5, 5, empty=False)) == errno.ENOTEMPTY
    )
    assert refused(lambda: decide.truncate(classify("/agent/a.d/cwd"), 5, 5, 3)) == errno.EINVAL
    for runtime in ("status", "pid", "log"):  # runtime state: the daemon's, even for root
        node = classify(f"/agent/a.d/{runtime}")
        assert refused(lambda n=node: decide.open_write(n, 5, 5)) == errno.EROFS
        assert refused(lambda n=node: decide.open_write(n, 0, 0)) == errno.EROFS
        temp = classify(f"/agent/a.d/.{runtime}.tmp-1-x-0")
        assert refused(lambda t=temp, n=node: decide.rename(t, n, 5, 5, 5)) == errno.EROFS
    for secret in ("/agent/a.d/env", "/tool/t.d/driver", "/tool/t.d/.driver.tmp-1-x-0"):
        node = classify(secret)
        assert refused(lambda n=node: decide.open_read(n, 6, 5)) == errno.EACCES
        assert decide.open_read(node, 5, 5) is None
        assert decide.open_read(node, 0, 5) is None
    assert decide.open_read(classify("/agent/a.d/policy"), 6, 5) is None


def test_rename_rules() -> None:
    temp, ctl = classify("/agent/a.d/.cwd.tmp-1-x-0"), classify("/agent/a.d/cwd")
    assert decide.rename(temp, ctl, 5, 5, 5) is Plan.COMMIT_CONTROL
    elsewhere = classify("/agent/b.d/cwd")
    assert refused(lambda: decide.rename(temp, elsewhere, 5, 5, 5)) == errno.EXDEV
    home_a, home_b = classify("/home/5/a"), classify("/home/5/b")
    assert decide.rename(home_a, home_b, 5, 5, 5) is Plan.PLAIN
    assert refused(lambda: decide.rename(home_a, classify("/shared/s/a"), 5, 5, 5)) == errno.EXDEV
    assert (
        refused(lambda: decide.rename(classify("/tool"), classify("/tools"), 0, 0, 0))
        == errno.EROFS
    )


def test_socket_alias_targets() -> None:
    sock = classify("/agent/a.sock")
    assert decide.symlink(sock, 5, 5, "/run/cortexfs/agent/a.sock") is Plan.SOCK_ALIAS
    assert refused(lambda: decide.symlink(sock, 5, 5, "/etc/passwd")) == errno.EINVAL
    assert refused(lambda: decide.symlink(sock, 5, 5, "/run/../etc/x")) == errno.EINVAL


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["agent", "tool", "x.d", "y", ".z.tmp-1", "home", "1", "a.sock"]),
        max_size=5,
    )
)
def test_classify_is_total_and_normalizing(parts: list[str]) -> None:
    node = classify("/" + "/".join(parts))
    assert classify(node.path) == node


def agent(**changes: object) -> AgentFacts:
    base = {
        "name": "coder", "uid": 5, "label": "user_u:agent_r:coder_t:s0",
        "perm": parse_perm("r-x"), "tools": ("echo",),
        "policy": parse_policy("allow coder_t tool:echo execute\n"),
    }  # fmt: skip
    return AgentFacts(**(base | changes))  # type: ignore[arg-type]


TOOL = ToolFacts("echo", (), parse_policy("allow coder_t tool:echo execute\n"))


def test_authorize_tool_needs_every_check() -> None:
    authorize_tool(5, agent(), TOOL)
    cases = [
        (6, agent(), TOOL, "caller uid 6"),
        (5, agent(tools=()), TOOL, "not declared"),
        (5, agent(perm=parse_perm("r--")), TOOL, "lacks x"),
        (5, agent(policy=parse_policy("")), TOOL, "agent coder policy"),
        (5, agent(), ToolFacts("echo", (), parse_policy("")), "tool echo policy"),
        (5, agent(label="nonsense"), TOOL, "not user:role:type:level"),
    ]
    for uid, facts, tool, fragment in cases:
        with pytest.raises(Denied) as info:
            authorize_tool(uid, facts, tool)
        assert fragment in info.value.message
        assert info.value.exit_code == 13


def test_required_bits_and_subject() -> None:
    assert required_bits(()) == "x"
    assert required_bits(("fs.read", "fs.write", "net")) == "rwx"
    assert subject_of("user_u:agent_r:coder_t:s0") == "coder_t"


def test_ctx_env_defaults_and_overrides() -> None:
    env = ctx_env({"CTX_ROOT": "/mnt/ctx", "CTX_HOME": "/nonexistent"}, 1000)
    assert env.path == ("/mnt/ctx/tool", "/nonexistent/tool")
    custom = ctx_env({"CTX_PATH": "/a::/b", "CTX_AGENT": "coder"}, 7)
    assert (custom.root, custom.home, custom.path, custom.agent) == (
        "/ctx", "/ctx/home/7", ("/a", "/b"), "coder",
    )  # fmt: skip


def test_projection_plan_validates_every_tool_first() -> None:
    planned = plan_projection("calc", ["calc-server"], [{"name": "add", "description": "a\n b"}])
    assert [(p.name, p.description, p.schema) for p in planned] == [
        ("calc.add", "a b\n", '{"type": "object"}\n'),
    ]
    with pytest.raises(BadInput):
        plan_projection("calc", ["s"], [{"name": "ok"}, {"name": "bad/name"}])
    with pytest.raises(BadInput):
        plan_projection("calc", ["s"], [{"description": "nameless"}])


def test_agent_identity_controls_follow_the_writer() -> None:
    user, root = decide.Writer(5, frozenset({5, 100})), decide.Writer(0, frozenset({0}))
    node = classify("/agent/a.d/uid")
    decide.control_value(node, user, "5\n", {})
    decide.control_value(node, root, "7\n", {})  # root provisions agents for other users
    assert refused(lambda: decide.control_value(node, user, "0\n", {})) == errno.EACCES
    decide.control_value(classify("/tool/t.d/uid"), user, "0\n", {})  # only agents have one
    gid, groups = classify("/agent/a.d/gid"), classify("/agent/a.d/groups")
    decide.control_value(gid, user, "100\n", {})
    decide.control_value(groups, user, "5\n100\n", {})
    decide.control_value(groups, root, "0\n27\n", {})
    assert refused(lambda: decide.control_value(gid, user, "0\n", {})) == errno.EACCES
    assert refused(lambda: decide.control_value(groups, user, "100\n27\n", {})) == errno.EACCES


@pytest.mark.parametrize(
    ("kind", "users", "writer", "expected"),
    [
        ("mine_t", {}, 5, 0),  # a type nobody uses yet
        ("mine_t", {"mine_t": frozenset({5})}, 5, 0),
        ("coder_t", {"coder_t": frozenset({0})}, 5, errno.EACCES),  # a system type
        ("x_t", {"x_t": frozenset({5, 6})}, 5, errno.EACCES),
        ("u5_agent_t", {}, 5, 0),
        ("u6_agent_t", {}, 5, errno.EACCES),  # reserved for uid 6
        ("u6_agent_t", {}, 0, 0),
        ("coder_t", {"coder_t": frozenset({5})}, 0, 0),  # root uses any type
    ],
)
def test_label_types_belong_to_their_users(kind, users, writer, expected) -> None:
    node = classify("/agent/a.d/label")
    who = decide.Writer(writer, frozenset({writer}))
    text = f"user_u:agent_r:{kind}:s0\n"
    assert refused(lambda: decide.control_value(node, who, text, users)) == expected
