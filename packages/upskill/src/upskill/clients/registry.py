"""The client table: one row per client module, in the order users see them.

Adding a client is adding its module and one line here (CONTRIBUTING.md,
"Adding a client"); `tests/clients_registry/` fails when a module misses a
fact or the docs table drifts from this table.
"""

from __future__ import annotations

from upskill.clients import (
    amp,
    augment,
    claude,
    cline,
    codex,
    continue_,
    copilot,
    crush,
    cursor,
    factory,
    gemini,
    junie,
    kilo,
    kiro,
    opencode,
    qwen,
    roo,
    vscode,
    windsurf,
    zed,
)
from upskill.clients.base import Client

CLIENTS: tuple[Client, ...] = (
    claude.CLIENT,
    copilot.CLIENT,
    vscode.CLIENT,
    opencode.CLIENT,
    codex.CLIENT,
    gemini.CLIENT,
    cursor.CLIENT,
    windsurf.CLIENT,
    cline.CLIENT,
    kilo.CLIENT,
    roo.CLIENT,
    kiro.CLIENT,
    qwen.CLIENT,
    junie.CLIENT,
    amp.CLIENT,
    zed.CLIENT,
    augment.CLIENT,
    factory.CLIENT,
    continue_.CLIENT,
    crush.CLIENT,
)

BY_ID: dict[str, Client] = {c.id: c for c in CLIENTS}
