"""Neutral capability names for `tools:` (format spec §4)."""

from __future__ import annotations

CAPABILITIES: tuple[str, ...] = (
    "read",
    "write",
    "edit",
    "bash",
    "grep",
    "glob",
    "web-fetch",
    "web-search",
)
