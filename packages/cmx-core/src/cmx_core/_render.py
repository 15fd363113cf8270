"""The reference's text layout, shared by plans, reports and status: one header,
then one indented `platform → path (state)` line per target."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from cmx_core._platforms import Platform


def target_line(platform: Platform, path: Path, state: object) -> str:
    return f"{platform} → {path} ({state})"


def block(header: Iterable[str], items: Iterable[object], footer: Iterable[str] = ()) -> str:
    lines = [*header, *(f"  {item}" for item in items), *footer]
    return "\n".join(lines) + "\n"
