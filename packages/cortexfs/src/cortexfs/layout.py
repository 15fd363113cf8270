"""Where a /ctx path sits in the ABI: a pure classification the decision layer works from."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from enum import Enum

from cortexfs.names import name_problem
from cortexfs.objects import ObjectClass

ROOT_ENTRIES = ("status", "bin", "model", "agent", "tool", "channel", "home", "shared")
ROOT_DIRS = ROOT_ENTRIES[1:]
# Object classes that also exist per user under home/<uid>/.
HOME_CLASSES = ("model", "agent", "tool")
_TEMP = re.compile(r"\.(?P<ctl>[A-Za-z0-9][A-Za-z0-9._+-]*)\.tmp-[A-Za-z0-9._-]+")


class Kind(Enum):
    ROOT = "root"
    STATUS = "status"
    NOT_IN_ROOT = "not-in-root"
    CLASS_DIR = "class-dir"  # bin/, agent/, home/<uid>/tool/, ...
    OBJECT = "object"  # agent/<n> (exec) or a model provider directory
    SOCK = "sock"
    CONTROLS = "controls"  # <n>.d/
    CONTROL = "control"  # <n>.d/<ctl>
    CONTROL_TEMP = "control-temp"  # <n>.d/.<ctl>.tmp-...
    CONTROL_NESTED = "control-nested"  # <n>.d/hooks/...
    HOMES = "homes"  # home/
    USER_HOME = "user-home"  # home/<uid>
    HOME_FILE = "home-file"  # home/<uid>/<anything not an object class>
    SHARED_ROOT = "shared-root"  # shared/
    SHARED_SPACE = "shared-space"  # shared/<s>
    SHARED_FILE = "shared-file"  # shared/<s>/...
    INVALID = "invalid"  # home/<not a uid>, ...


@dataclass(frozen=True)
class Node:
    path: str  # "/agent/coder.d/perm"
    kind: Kind
    object_class: ObjectClass | None = None
    home_uid: int | None = None  # set for everything under home/<uid>
    class_dir: str | None = None  # "/agent" or "/home/1000/tool"
    object_name: str | None = None  # "coder", "debug/echo"
    control: str | None = None  # control name (the target name for temp files)
    shared_space: str | None = None

    @property
    def parent(self) -> str:
        return parent_of(self.path)

    @property
    def base(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    def object_path(self) -> str:
        return f"{self.class_dir}/{self.object_name}"

    def controls_path(self) -> str:
        return f"{self.object_path()}.d"


def parent_of(path: str) -> str:
    head = path.rsplit("/", 1)[0]
    return head or "/"


def split(path: str) -> list[str]:
    return [p for p in path.split("/") if p]


def _uid(text: str) -> int | None:
    if text.isascii() and text.isdigit() and (text == "0" or not text.startswith("0")):
        return int(text)
    return None


def _object_node(
    path: str, cls: ObjectClass, class_dir: str, rest: list[str], uid: int | None
) -> Node:
    if not rest:
        return Node(path, Kind.CLASS_DIR, cls, uid, class_dir)
    for index, part in enumerate(rest):
        if part.endswith(".d") and len(part) > 2:
            name = "/".join([*rest[:index], part[:-2]])
            inner = rest[index + 1 :]
            base = Node(path, Kind.CONTROLS, cls, uid, class_dir, name)
            if not inner:
                return base
            if len(inner) > 1:
                return replace(base, kind=Kind.CONTROL_NESTED)
            temp = _TEMP.fullmatch(inner[0])
            if temp:
                return replace(base, kind=Kind.CONTROL_TEMP, control=temp["ctl"])
            return replace(base, kind=Kind.CONTROL, control=inner[0])
    last = rest[-1]
    if last.endswith(".sock") and len(last) > 5:
        name = "/".join([*rest[:-1], last[:-5]])
        return Node(path, Kind.SOCK, cls, uid, class_dir, name)
    return Node(path, Kind.OBJECT, cls, uid, class_dir, "/".join(rest))


@functools.lru_cache(maxsize=4096)
def classify(path: str) -> Node:
    """Pure and hot (every FUSE request): memoized."""
    parts = split(path)
    norm = "/" + "/".join(parts)
    if not parts:
        return Node("/", Kind.ROOT)
    top, rest = parts[0], parts[1:]
    if top == "status":
        return Node(norm, Kind.STATUS if not rest else Kind.INVALID)
    if top not in ROOT_DIRS:
        return Node(norm, Kind.NOT_IN_ROOT)
    if top == "home":
        return _home_node(norm, rest)
    if top == "shared":
        if not rest:
            return Node(norm, Kind.SHARED_ROOT)
        kind = Kind.SHARED_SPACE if len(rest) == 1 else Kind.SHARED_FILE
        return Node(norm, kind, shared_space=rest[0])
    cls = ObjectClass(top)
    return _object_node(norm, cls, f"/{top}", rest, None)


def _home_node(norm: str, rest: list[str]) -> Node:
    if not rest:
        return Node(norm, Kind.HOMES)
    uid = _uid(rest[0])
    if uid is None:
        return Node(norm, Kind.INVALID)
    if len(rest) == 1:
        return Node(norm, Kind.USER_HOME, home_uid=uid)
    if _agent_state(rest):
        return Node(norm, Kind.HOME_FILE, home_uid=uid)
    if rest[1] in HOME_CLASSES:
        class_dir = f"/home/{rest[0]}/{rest[1]}"
        return _object_node(norm, ObjectClass(rest[1]), class_dir, rest[2:], uid)
    return Node(norm, Kind.HOME_FILE, home_uid=uid)


def _agent_state(rest: list[str]) -> bool:
    """home/<uid>/agent/<a>/... is the uid's own state for agent <a> (sessions, data):
    plain files. <a> must be an object name, so it is never `<n>.d` or `<n>.sock`."""
    return len(rest) > 3 and rest[1] == "agent" and name_problem(rest[2]) is None
