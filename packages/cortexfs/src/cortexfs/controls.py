"""Control-file values: one UTF-8 value plus LF, lists one per line, booleans 0/1.

The filesystem validates every committed control with `check_control`, so a reader of
`<name>.d/<ctl>` only ever sees a value of the documented shape.
"""

from __future__ import annotations

import errno
import re
from enum import Enum

from cortexfs.env_rules import reserved_env_key
from cortexfs.errors import FsRefusal
from cortexfs.json_bounds import loads_bounded
from cortexfs.labels import parse_label
from cortexfs.mount_table import parse_mount_table
from cortexfs.names import name_problem
from cortexfs.perm import parse_perm
from cortexfs.policy import PolicyError, parse_policy

MAX_CONTROL_BYTES = 64 * 1024


class ControlKind(Enum):
    VALUE = "value"  # exactly one non-empty line
    OPTIONAL_VALUE = "optional-value"  # one line or empty file
    UINT = "uint"
    OPTIONAL_UINT = "optional-uint"
    BOOL = "bool"
    PERM = "perm"
    LIST = "list"  # zero or more non-empty lines
    UINT_LIST = "uint-list"  # zero or more unsigned integers, one per line
    NAME_LIST = "name-list"  # zero or more object names, one per line
    KEY_VALUE = "key-value"  # zero or more KEY=VALUE lines
    ENV = "env"  # KEY=VALUE lines without the launcher's or the loader's variables
    LABEL = "label"  # user:role:type:level
    POLICY = "policy"
    MOUNT = "mount"
    JSON = "json"
    TEXT = "text"  # free UTF-8 text (logs, descriptions)


CONTROL_KINDS: dict[str, ControlKind] = {
    "owner": ControlKind.UINT,
    "uid": ControlKind.UINT,
    "gid": ControlKind.UINT,
    "groups": ControlKind.UINT_LIST,
    "perm": ControlKind.PERM,
    "label": ControlKind.LABEL,
    "iso": ControlKind.BOOL,
    "parent": ControlKind.OPTIONAL_VALUE,
    "life": ControlKind.VALUE,
    "root": ControlKind.OPTIONAL_VALUE,
    "cwd": ControlKind.OPTIONAL_VALUE,
    "env": ControlKind.ENV,
    "path": ControlKind.LIST,
    "mount": ControlKind.MOUNT,
    "model": ControlKind.OPTIONAL_VALUE,
    "policy": ControlKind.POLICY,
    "status": ControlKind.VALUE,
    "pid": ControlKind.OPTIONAL_UINT,
    "log": ControlKind.TEXT,
    "meta.json": ControlKind.JSON,
    "name": ControlKind.VALUE,
    "description": ControlKind.TEXT,
    "schema": ControlKind.JSON,
    "cap": ControlKind.LIST,
    "tools": ControlKind.NAME_LIST,
    "approval": ControlKind.OPTIONAL_VALUE,
    "driver": ControlKind.KEY_VALUE,
    "id": ControlKind.VALUE,
    "effort": ControlKind.OPTIONAL_VALUE,
    "default": ControlKind.KEY_VALUE,
    "fallback": ControlKind.LIST,
    "session": ControlKind.VALUE,
    "limit": ControlKind.VALUE,
}

_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")


def control_kind(name: str) -> ControlKind:
    """Unknown control names hold a single value: the safest shape to accept."""
    return CONTROL_KINDS.get(name, ControlKind.VALUE)


def _lines(text: str) -> list[str]:
    if text == "":
        return []
    if not text.endswith("\n"):
        raise ValueError("value must end with a newline")
    return text[:-1].split("\n")


def _single(text: str, allow_empty: bool) -> str:
    lines = _lines(text)
    if not lines and allow_empty:
        return ""
    if len(lines) != 1 or lines[0] == "":
        raise ValueError("expected exactly one non-empty line")
    return lines[0]


def _check_uint(value: str) -> None:
    if not value.isascii() or not value.isdigit() or (len(value) > 1 and value[0] == "0"):
        raise ValueError(f"{value!r} is not an unsigned integer")


def _check_lines(kind: ControlKind, text: str) -> None:
    lines = _lines(text)
    if any(line == "" for line in lines):
        raise ValueError("empty line in list")
    for line in lines:
        if kind is ControlKind.UINT_LIST:
            _check_uint(line)
        elif kind is ControlKind.NAME_LIST and name_problem(line):
            raise ValueError(f"{line!r} is not an object name: {name_problem(line)}")
        elif kind in (ControlKind.KEY_VALUE, ControlKind.ENV):
            key, sep, _ = line.partition("=")
            if not sep or not _KEY.fullmatch(key):
                raise ValueError(f"{line!r} is not KEY=VALUE")
            if kind is ControlKind.ENV and reserved_env_key(key):
                raise ValueError(f"{key} is set by the launcher or the loader, not by env")


_LINE_KINDS = (
    ControlKind.LIST,
    ControlKind.UINT_LIST,
    ControlKind.NAME_LIST,
    ControlKind.KEY_VALUE,
    ControlKind.ENV,
)


def _check_kind(kind: ControlKind, text: str) -> None:
    if kind in (ControlKind.VALUE, ControlKind.OPTIONAL_VALUE):
        _single(text, allow_empty=kind is ControlKind.OPTIONAL_VALUE)
    elif kind in (ControlKind.UINT, ControlKind.OPTIONAL_UINT):
        value = _single(text, allow_empty=kind is ControlKind.OPTIONAL_UINT)
        if value:
            _check_uint(value)
    elif kind is ControlKind.BOOL:
        if _single(text, allow_empty=False) not in ("0", "1"):
            raise ValueError("boolean must be 0 or 1")
    elif kind is ControlKind.LABEL:
        parse_label(_single(text, allow_empty=False))
    elif kind is ControlKind.PERM:
        parse_perm(_single(text, allow_empty=False))
    elif kind in _LINE_KINDS:
        _check_lines(kind, text)
    elif kind is ControlKind.POLICY:
        parse_policy(text)
    elif kind is ControlKind.MOUNT:
        parse_mount_table(text)
    elif kind is ControlKind.JSON and text:
        loads_bounded(text)


def decode_control(data: bytes) -> str:
    """Size and encoding checks every control write gets before its shape is checked."""
    if len(data) > MAX_CONTROL_BYTES:
        raise FsRefusal(errno.EMSGSIZE, f"control value over {MAX_CONTROL_BYTES} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FsRefusal(errno.EILSEQ, "control value is not UTF-8") from exc
    if "\x00" in text:
        raise FsRefusal(errno.EINVAL, "control value contains NUL")
    return text


def check_control(name: str, data: bytes) -> str:
    """Validate `data` as the whole new value of control `name`; FsRefusal when it is not."""
    text = decode_control(data)
    try:
        _check_kind(control_kind(name), text)
    except (ValueError, PolicyError) as exc:
        raise FsRefusal(errno.EINVAL, f"{name}: {exc}") from exc
    return text
