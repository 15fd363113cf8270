"""Which variables an agent's `.d/env` may not set: the launcher's own (`CTX_*`) and
the dynamic loader's (`LD_PRELOAD`, `LD_LIBRARY_PATH`, ...), which would run code in
every process of the launch chain. Checked when the control is written and again
when a launch reads it."""

from __future__ import annotations

RESERVED_ENV_PREFIXES = ("LD_", "CTX_")


def reserved_env_key(key: str) -> bool:
    return key.startswith(RESERVED_ENV_PREFIXES)
