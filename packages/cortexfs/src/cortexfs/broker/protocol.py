"""`cortexfs.broker/v1` frames.

Requests (one JSON object per line, `v` = 1):
    {"v": 1, "op": "hello"}
    {"v": 1, "op": "call", "id": "...", "object": "/ctx/tool/x" | "x", "args": [...],
     "stdin": true}                  # the caller's stdin travels as an SCM_RIGHTS fd
Replies:
    {"v": 1, "type": "hello", "abi": "cortexfs.broker/v1", "agent": "...", "ops": [...]}
    {"v": 1, "type": "event", "id": "...", "event": {<object-runner event>}}
    {"v": 1, "type": "result", "id": "...", "exit_code": N}
    {"v": 1, "type": "error", "id": "...", "errno": "EINVAL", "message": "..."}
Unknown fields are ignored; an unknown `op` or `v` is EINVAL.
"""

from __future__ import annotations

from typing import Any

ABI = "cortexfs.broker/v1"
VERSION = 1


def reply(kind: str, ident: object = None, **fields: Any) -> dict[str, Any]:
    frame: dict[str, Any] = {"v": VERSION, "type": kind, **fields}
    if ident is not None:
        frame["id"] = ident
    return frame
