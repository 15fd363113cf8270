"""Read-only `user.cortexfs.*` extended attributes: kind, origin, abi_path, sizes. Pure."""

from __future__ import annotations

from cortexfs.layout import Kind, Node

PREFIX = "user.cortexfs."
TOKENIZER = "byte-estimate-v1"
NAMES = ("kind", "origin", "abi_path", "bytes", "token_estimate", "tokenizer")
# The root also names its backing storage, so a launcher can refuse to bind any directory
# that is, holds or lies in it (the storage is never exposed around the filesystem).
BACKING_PATH = "backing_path"
ABI_ROOT = "/ctx"


def kind_string(node: Node, is_dir: bool) -> str:
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
        Kind.OBJECT: "namespace" if is_dir else "exec",
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


def xattr_values(node: Node, is_dir: bool, size: int, backing: str) -> dict[str, bytes]:
    virtual = node.kind in (Kind.ROOT, Kind.STATUS)
    abi_path = ABI_ROOT if node.path == "/" else ABI_ROOT + node.path
    values = {
        "kind": kind_string(node, is_dir),
        "origin": "virtual" if virtual else "disk",
        "abi_path": abi_path,
        "bytes": str(size),
        "token_estimate": str((size + 3) // 4),
        "tokenizer": TOKENIZER,
    }
    if node.kind is Kind.ROOT:
        values[BACKING_PATH] = backing
    return {PREFIX + key: value.encode() for key, value in values.items()}
