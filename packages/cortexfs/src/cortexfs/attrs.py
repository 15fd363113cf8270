"""How a backing entry is presented through the mount: mode bits and owner. Pure."""

from __future__ import annotations

import stat
from dataclasses import dataclass

from cortexfs.decide import IMMUTABLE_CONTROLS, RUNTIME_CONTROLS, SECRET_CONTROLS
from cortexfs.layout import Kind, Node
from cortexfs.perm import Perm

STATUS_BYTES = b"ready\n"
_DIR = stat.S_IFDIR
_REG = stat.S_IFREG
# Anyone may try to create here; the filesystem decides who may create what.
_STICKY_DIRS = ("/agent",)
_STICKY_KINDS = (Kind.SHARED_ROOT, Kind.HOMES)


@dataclass(frozen=True)
class BackingStat:
    mode: int
    size: int
    uid: int
    gid: int
    nlink: int
    atime_ns: int
    mtime_ns: int
    ctime_ns: int


def control_mode(control: str) -> int:
    if control in SECRET_CONTROLS:
        return 0o600
    if control == "log":
        return 0o644  # the owner may append (decide.log_append); nobody rewrites it
    if control in IMMUTABLE_CONTROLS or control in RUNTIME_CONTROLS:
        return 0o444
    return 0o644


def presented_mode(node: Node, backing_mode: int, perm: Perm | None) -> int:
    kind = node.kind
    fmt = stat.S_IFMT(backing_mode)
    if kind is Kind.ROOT:
        return _DIR | 0o755
    if kind is Kind.STATUS:
        return _REG | 0o444
    if (kind is Kind.CLASS_DIR and node.path in _STICKY_DIRS) or kind in _STICKY_KINDS:
        return _DIR | 0o1777
    if fmt == stat.S_IFLNK:
        return stat.S_IFLNK | 0o777
    if kind is Kind.OBJECT and fmt == _REG and backing_mode & 0o100:
        # Exec objects (stored with the owner x bit): .d/perm appears as the owner bits.
        return _REG | (perm.owner_bits if perm else 0o500) | 0o055
    if kind is Kind.OBJECT and fmt == _REG:
        return _REG | 0o444  # data beside objects (model/route, bootstrap state)
    if kind is Kind.CONTROL and fmt == _REG:
        return _REG | control_mode(node.control or "")
    if kind is Kind.CONTROL_TEMP:
        return fmt | 0o600
    if kind in (Kind.HOME_FILE, Kind.SHARED_FILE, Kind.SHARED_SPACE):
        return backing_mode
    return fmt | (0o755 if fmt == _DIR else 0o644)


def presented(node: Node, st: BackingStat, owner: int, perm: Perm | None) -> dict[str, int]:
    size = len(STATUS_BYTES) if node.kind is Kind.STATUS else st.size
    return {
        "st_mode": presented_mode(node, st.mode, perm),
        "st_size": size,
        "st_uid": owner,
        "st_gid": st.gid if node.kind in (Kind.HOME_FILE, Kind.SHARED_FILE) else 0,
        "st_nlink": st.nlink,
        "st_atime": st.atime_ns,
        "st_mtime": st.mtime_ns,
        "st_ctime": st.ctime_ns,
    }
