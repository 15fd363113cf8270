"""Read-only `user.cortexfs.*` extended attributes: what a path is in the ABI, where its
bytes come from, how the kernel caches them, and sizes. Pure.

The `context_*` attributes of the upstream notes are not provided: the notes name only
the prefix, and hosted CLIs, not CortexFS, assemble their context (docs/cortexfs).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from cortexfs.layout import Kind, Node

PREFIX = "user.cortexfs."
TOKENIZER = "byte-estimate-v1"
NAMES = (
    "kind", "origin", "abi_path", "storage", "mime_type", "bytes", "token_estimate",
    "tokenizer", "cache_policy", "cache_ttl_ms",
)  # fmt: skip
# The root also names its backing storage, so a launcher can refuse to bind any directory
# that is, holds or lies in it (the storage is never exposed around the filesystem).
BACKING_PATH = "backing_path"
ABI_ROOT = "/ctx"


TEXT = "text/plain; charset=utf-8"
OBJECT_MIME = "application/x-cortexfs-object"
_BY_SUFFIX = {
    ".json": "application/json", ".jsonl": "application/jsonl", ".md": "text/markdown",
    ".txt": TEXT, ".7": "text/troff",
}  # fmt: skip
_JSON_CONTROLS = frozenset({"meta.json", "schema"})
_CONTROL_KINDS = (Kind.CONTROL, Kind.CONTROL_TEMP, Kind.CONTROL_NESTED)


@dataclass(frozen=True)
class Facts:
    """What the daemon knows of a path besides its ABI node."""

    is_dir: bool
    is_exec: bool  # a regular file stored with the owner x bit: an executable object
    size: int
    derived: bool  # bytes made by the daemon (status, an agent's runtime state)
    storage: str  # the storage directory served
    ttl_ms: int  # the kernel's attribute and entry timeout


def kind_string(node: Node, is_dir: bool, is_exec: bool = True) -> str:
    """`ctx.<class>.<role>` type strings, `ctx.unknown` when nothing fits."""
    cls = node.object_class.value if node.object_class else None
    roles = {
        Kind.ROOT: "ctx.root",
        Kind.STATUS: "ctx.status",
        Kind.HOMES: "ctx.home.dir",
        Kind.USER_HOME: "ctx.home.user",
        Kind.HOME_FILE: "ctx.home.dir" if is_dir else "ctx.home.file",
        Kind.SHARED_ROOT: "ctx.shared.dir",
        Kind.SHARED_SPACE: "ctx.shared.space",
        Kind.SHARED_FILE: "ctx.shared.dir" if is_dir else "ctx.shared.file",
    }
    if node.kind in roles:
        return roles[node.kind]
    by_class = {
        Kind.CLASS_DIR: "dir",
        Kind.OBJECT: "namespace" if is_dir else ("exec" if is_exec else "data"),
        Kind.SOCK: "sock",
        Kind.CONTROLS: "controls",
        Kind.CONTROL: "control",
        Kind.CONTROL_TEMP: "control",
        Kind.CONTROL_NESTED: "control",
    }
    if cls and node.kind in by_class:
        return f"ctx.{cls}.{by_class[node.kind]}"
    return "ctx.unknown"


def names(node: Node) -> list[str]:
    extra = (BACKING_PATH,) if node.kind is Kind.ROOT else ()
    return [PREFIX + key for key in (*NAMES, *extra)]


def mime_type(node: Node, facts: Facts) -> str:
    if facts.is_dir:
        return "inode/directory"
    if node.kind is Kind.OBJECT and facts.is_exec:
        return OBJECT_MIME
    if node.kind in _CONTROL_KINDS:
        return "application/json" if node.control in _JSON_CONTROLS else TEXT
    suffix = os.path.splitext(node.base)[1]
    if suffix in _BY_SUFFIX:
        return _BY_SUFFIX[suffix]
    return TEXT if node.kind in (Kind.STATUS, Kind.OBJECT) else "application/octet-stream"


def cache_policy(node: Node, facts: Facts) -> str:
    """keep: page cache kept across opens; reread: re-read at each open (listings and
    controls, which change by replacement); direct: never cached (derived state)."""
    if facts.derived and node.kind is not Kind.STATUS:
        return "direct"
    if facts.is_dir or node.kind in (Kind.CONTROL, Kind.CONTROL_TEMP):
        return "reread"
    return "keep"


def xattr_values(node: Node, facts: Facts) -> dict[str, bytes]:
    virtual = node.kind in (Kind.ROOT, Kind.STATUS) or facts.derived
    abi_path = ABI_ROOT if node.path == "/" else ABI_ROOT + node.path
    values = {
        "kind": kind_string(node, facts.is_dir, facts.is_exec),
        "origin": "virtual" if virtual else "disk",
        "abi_path": abi_path,
        "storage": os.path.basename(facts.storage),
        "mime_type": mime_type(node, facts),
        "bytes": str(facts.size),
        "token_estimate": str((facts.size + 3) // 4),
        "tokenizer": TOKENIZER,
        "cache_policy": cache_policy(node, facts),
        "cache_ttl_ms": str(facts.ttl_ms),
    }
    if node.kind is Kind.ROOT:
        values[BACKING_PATH] = facts.storage
    return {PREFIX + key: value.encode() for key, value in values.items()}
