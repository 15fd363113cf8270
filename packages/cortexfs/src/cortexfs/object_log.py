"""Append to an object's `.d/log`: the control is replaced whole (temp file + rename),
so an append is read, concatenate, keep the newest MAX_LOG bytes, replace."""

from __future__ import annotations

from cortexfs.ctl_write import write_control
from cortexfs.errors import CtxError
from cortexfs.resolve import read_text

MAX_LOG = 48 * 1024  # under the mount's 64 KiB control limit


def append_log(path: str, data: bytes) -> bool:
    """Best effort: False when the log cannot be read or replaced by this uid (a log is
    written through the mount like any control, so the owner's rights decide)."""
    if not data:
        return True
    text = data.decode("utf-8", "replace").replace("\x00", "\ufffd")
    if not text.endswith("\n"):
        text += "\n"
    try:
        old = read_text(path)
        combined = (old + text).encode()
        if len(combined) > MAX_LOG:
            tail = combined[-MAX_LOG:]
            cut = tail.find(b"\n")
            combined = tail[cut + 1 :] if cut >= 0 else tail
        write_control(path, combined.decode("utf-8", "ignore").encode())
    except CtxError:
        return False
    return True
