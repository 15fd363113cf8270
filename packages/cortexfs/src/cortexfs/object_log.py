"""An object's `.d/log`: runtime state the mount daemon keeps. The daemon appends
what the object's owner writes through an O_APPEND open (decide.log_append), keeping
the newest MAX_LOG bytes from a line start; `append_log` is that writer's side."""

from __future__ import annotations

import os

MAX_LOG = 48 * 1024  # under the mount's 64 KiB control limit


def appended_log(old: bytes, new: bytes) -> bytes:
    """`old` + `new` as UTF-8 text without NULs, newline-terminated, cut to MAX_LOG."""
    text = new.decode("utf-8", "replace").replace("\x00", "\ufffd")
    if text and not text.endswith("\n"):
        text += "\n"
    combined = old + text.encode()
    if len(combined) <= MAX_LOG:
        return combined
    tail = combined[-MAX_LOG:]
    cut = tail.find(b"\n")
    return tail[cut + 1 :] if 0 <= cut < len(tail) - 1 else tail


def append_log(path: str, data: bytes) -> bool:
    """Best effort (False when this uid may not append: not the object's owner)."""
    if not data:
        return True
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        os.write(fd, data[-MAX_LOG:])
    except OSError:
        return False
    finally:
        os.close(fd)
    return True
