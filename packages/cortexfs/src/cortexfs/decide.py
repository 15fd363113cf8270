"""What a filesystem operation may do, given the ABI node, the caller uid and the owner uid.

Pure: the FUSE adapter resolves the owner and liveness from storage, asks here, and
performs exactly the returned plan. A refusal is an `FsRefusal` carrying the errno.
Structure is checked before authority, so a read-only area answers EROFS to everyone
(root included: root ignores mode bits, so the filesystem itself must refuse).
"""

from __future__ import annotations

import errno
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from cortexfs.errors import FsRefusal
from cortexfs.labels import parse_label, type_problem
from cortexfs.layout import Kind, Node
from cortexfs.names import name_problem
from cortexfs.objects import ObjectClass
from cortexfs.templates import PROTECTED_PATHS, PROTECTED_SPACES

READ_ONLY_CLASSES = (ObjectClass.BIN, ObjectClass.CHANNEL)
# Controls nobody may rewrite through the mount: identity and provider limits.
IMMUTABLE_CONTROLS = frozenset({"owner", "limit"})
# Runtime state: the daemon derives or writes it; nobody writes it through the mount.
RUNTIME_CONTROLS = frozenset({"status", "pid", "log"})
# Controls that may hold secrets (API keys in env, tokens in a driver's argv): read by
# their owner (and root) only.
SECRET_CONTROLS = frozenset({"env", "driver"})
SOCKET_ALIAS_PREFIX = "/run/"


class Plan(Enum):
    CONTROL = "control"  # whole-file replace of a validated control value
    TEMP = "temp"  # a control temp file, validated when renamed over its control
    PLAIN = "plain"  # ordinary file or directory under home/ or shared/
    OBJECT = "object"  # create <n>.d/ with default controls and the exec wrapper
    USER_HOME = "user-home"
    SHARED_SPACE = "shared-space"
    OBJECT_TRIPLE = "object-triple"  # unlink <n>, <n>.sock and <n>.d/
    COMMIT_CONTROL = "commit-control"  # rename temp over control
    PERM_CONTROL = "perm-control"  # chmod rewrites .d/perm
    SOCK_ALIAS = "sock-alias"


def refuse(err: int, reason: str) -> FsRefusal:
    return FsRefusal(err, reason)


def _require_owner(uid: int, owner: int, what: str) -> None:
    if uid != owner:
        raise refuse(errno.EACCES, f"only uid {owner} may change {what}")


def _read_only(node: Node) -> FsRefusal:
    return refuse(errno.EROFS, f"{node.path} is read-only")


def protected(node: Node) -> bool:
    """Part of the reference tree nobody changes (templates.PROTECTED_*)."""
    return node.path in PROTECTED_PATHS or node.shared_space in PROTECTED_SPACES


def _reference(node: Node) -> None:
    if protected(node):
        raise refuse(errno.EROFS, f"{node.path} is part of the reference tree")


def _object_structure(node: Node) -> None:
    if node.object_class in READ_ONLY_CLASSES:
        raise _read_only(node)


def _control_write(node: Node, uid: int, owner: int) -> Plan:
    _object_structure(node)
    assert node.control is not None
    if node.control in IMMUTABLE_CONTROLS:
        raise refuse(errno.EROFS, f"control {node.control} is immutable")
    if node.control in RUNTIME_CONTROLS:
        raise refuse(errno.EROFS, f"control {node.control} is runtime state the daemon keeps")
    if name_problem(node.control) and node.control != "meta.json":
        raise refuse(errno.EINVAL, f"bad control name {node.control!r}")
    _require_owner(uid, owner, node.controls_path())
    return Plan.CONTROL


def _plain(node: Node, uid: int, owner: int) -> Plan:
    _require_owner(uid, owner, node.path)
    return Plan.PLAIN


PLAIN_KINDS = (Kind.HOME_FILE, Kind.SHARED_FILE)


def open_read(node: Node, uid: int, owner: int) -> None:
    """Everything readable is readable by all, except secret-bearing controls."""
    secret = node.kind in (Kind.CONTROL, Kind.CONTROL_TEMP) and node.control in SECRET_CONTROLS
    if secret and uid not in (0, owner):
        raise refuse(errno.EACCES, f"{node.path} is readable by uid {owner} only")


def log_append(node: Node, uid: int, owner: int) -> None:
    """`.d/log` is the daemon's, but an object's owner (a warm host handing on its MCP
    server's stderr) may add to it: an O_APPEND open, whose writes the daemon appends.
    It can never rewrite or shorten what is there."""
    _object_structure(node)
    _reference(node)
    if uid != 0:
        _require_owner(uid, owner, node.path)


def open_write(node: Node, uid: int, owner: int) -> Plan:
    _reference(node)
    if node.kind is Kind.CONTROL:
        return _control_write(node, uid, owner)
    if node.kind is Kind.CONTROL_TEMP:
        _object_structure(node)
        _require_owner(uid, owner, node.controls_path())
        return Plan.TEMP
    if node.kind in PLAIN_KINDS:
        return _plain(node, uid, owner)
    raise _read_only(node)


def create(node: Node, uid: int, owner: int) -> Plan:
    return open_write(node, uid, owner)


def truncate(node: Node, uid: int, owner: int, length: int) -> Plan:
    plan = open_write(node, uid, owner)
    if plan is Plan.CONTROL and length != 0:
        raise refuse(errno.EINVAL, "controls are replaced whole, not truncated to a length")
    return plan


def _new_object(node: Node, uid: int, owner: int) -> Plan:
    _object_structure(node)
    assert node.object_name is not None
    for part in node.object_name.split("/"):
        problem = name_problem(part)
        if problem:
            raise refuse(errno.EINVAL, f"object name {part!r} {problem}")
    if "/" in node.object_name and node.object_class is not ObjectClass.MODEL:
        raise refuse(errno.EINVAL, "only models use provider/model names")
    if node.object_class is ObjectClass.AGENT and node.home_uid is None:
        return Plan.OBJECT  # agent/ is 01777: any uid creates agents it then owns
    _require_owner(uid, owner, node.class_dir or node.path)
    return Plan.OBJECT


def mkdir(node: Node, uid: int, owner: int) -> Plan:
    kind = node.kind
    _reference(node)
    _object_structure(node)
    if kind is Kind.CONTROLS:
        return _new_object(node, uid, owner)
    if kind is Kind.OBJECT and node.object_class is ObjectClass.MODEL:
        _require_owner(uid, owner, node.class_dir or node.path)
        return Plan.PLAIN  # a provider namespace such as model/<provider>/
    if kind is Kind.OBJECT and _agent_state_dir(node):
        _require_owner(uid, owner, node.path)
        return Plan.PLAIN  # home/<uid>/agent/<a>/: the uid's state for agent <a>
    if kind is Kind.USER_HOME:
        if uid not in (0, node.home_uid):
            raise refuse(errno.EACCES, f"only uid {node.home_uid} or root may create {node.path}")
        return Plan.USER_HOME
    if kind is Kind.SHARED_SPACE:
        problem = name_problem(node.base)
        if problem:
            raise refuse(errno.EINVAL, f"shared space {node.base!r} {problem}")
        return Plan.SHARED_SPACE
    if kind in PLAIN_KINDS:
        return _plain(node, uid, owner)
    if kind is Kind.OBJECT:
        raise refuse(errno.EINVAL, "objects are created with mkdir <name>.d")
    raise _read_only(node)


def _agent_state_dir(node: Node) -> bool:
    name = node.object_name or ""
    home_agent = node.object_class is ObjectClass.AGENT and node.home_uid is not None
    return home_agent and name_problem(name) is None


def rmdir(node: Node, uid: int, owner: int, empty: bool) -> Plan:
    _reference(node)
    state_dir = node.kind is Kind.OBJECT and _agent_state_dir(node)
    if node.kind not in (*PLAIN_KINDS, Kind.SHARED_SPACE) and not state_dir:
        raise _read_only(node)
    _require_owner(uid, owner, node.path)
    if not empty:
        raise refuse(errno.ENOTEMPTY, f"{node.path} is not empty")
    return Plan.PLAIN


def unlink(node: Node, uid: int, owner: int, live: bool) -> Plan:
    kind = node.kind
    _reference(node)
    if kind is Kind.OBJECT:
        _object_structure(node)
        _require_owner(uid, owner, node.path)
        if live:
            raise refuse(errno.EBUSY, f"{node.path} is running")
        return Plan.OBJECT_TRIPLE
    if kind is Kind.CONTROL_TEMP:
        _require_owner(uid, owner, node.controls_path())
        return Plan.TEMP
    if kind in PLAIN_KINDS:
        return _plain(node, uid, owner)
    raise _read_only(node)


def rename(old: Node, new: Node, uid: int, owner_old: int, owner_new: int) -> Plan:
    _reference(old)
    _reference(new)
    if old.kind is Kind.CONTROL_TEMP and new.kind is Kind.CONTROL:
        if old.parent != new.parent:
            raise refuse(errno.EXDEV, "controls are replaced by a rename in the same directory")
        _require_owner(uid, owner_old, old.controls_path())
        _control_write(new, uid, owner_new)
        return Plan.COMMIT_CONTROL
    if old.kind in PLAIN_KINDS and new.kind in PLAIN_KINDS:
        same_area = (old.home_uid, old.shared_space) == (new.home_uid, new.shared_space)
        if not same_area:
            raise refuse(errno.EXDEV, "rename across home/shared areas")
        _require_owner(uid, owner_old, old.path)
        _require_owner(uid, owner_new, new.path)
        return Plan.PLAIN
    raise _read_only(old if old.kind not in PLAIN_KINDS else new)


def chmod(node: Node, uid: int, owner: int, has_perm_control: bool) -> Plan:
    if node.kind is not Kind.OBJECT:  # an object's mode bits are its perm control
        _reference(node)
    if node.kind is Kind.OBJECT and has_perm_control:
        _object_structure(node)
        _require_owner(uid, owner, node.path)
        return Plan.PERM_CONTROL
    if node.kind in (*PLAIN_KINDS, Kind.SHARED_SPACE):
        return _plain(node, uid, owner)
    raise _read_only(node)


def symlink(node: Node, uid: int, owner: int, target: str) -> Plan:
    _reference(node)
    if node.kind is not Kind.SOCK or node.object_class is not ObjectClass.AGENT:
        raise _read_only(node)
    _require_owner(uid, owner, node.path)
    if not target.startswith(SOCKET_ALIAS_PREFIX) or "/../" in f"{target}/":
        raise refuse(errno.EINVAL, f"socket aliases point under {SOCKET_ALIAS_PREFIX}")
    return Plan.SOCK_ALIAS


@dataclass(frozen=True)
class Writer:
    """Who writes a control: uid, and every gid it holds (primary and supplementary)."""

    uid: int
    gids: frozenset[int]


IDENTITY_CONTROLS = frozenset({"uid", "gid", "groups", "label"})


def control_value(
    node: Node, writer: Writer, text: str, type_users: Mapping[str, frozenset[int]]
) -> None:
    """Value rules that depend on who writes. The launcher derives the agent's process
    credentials from uid, gid and groups, and its grants from the label's type: a
    non-root owner may name only its own uid and groups, and a type no other uid uses
    (`type_users`: type -> uids whose objects use it; needed for `label` only)."""
    if node.object_class is not ObjectClass.AGENT or writer.uid == 0:
        return
    control, lines = node.control, [line for line in text.split("\n") if line]
    if control == "uid" and lines != [str(writer.uid)]:
        raise refuse(errno.EACCES, f"only root may set an agent's uid other than {writer.uid}")
    if control in ("gid", "groups"):
        foreign = [g for g in lines if int(g) not in writer.gids]
        if foreign:
            raise refuse(errno.EACCES, f"{control}: uid {writer.uid} is not in group {foreign[0]}")
    if control == "label":
        problem = type_problem(parse_label(lines[0]), writer.uid, type_users)
        if problem:
            raise refuse(errno.EACCES, f"label: {problem}")
