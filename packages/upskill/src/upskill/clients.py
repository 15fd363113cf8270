"""The client table.

Users select among four clients, but only three output trees exist: VS Code
reads the files written for GitHub Copilot (`.github/**`), so `vscode` is a
selection (and MCP) target that renders Copilot's tree. Keeping the mapping in
one table stops install, remove and doctor from disagreeing about it.
"""

from __future__ import annotations

from collections.abc import Iterable

from upskill.errors import UsageError

CLAUDE = "claude"
COPILOT = "copilot"
VSCODE = "vscode"
OPENCODE = "opencode"
CODEX = "codex"

# What a user may select (flags, config `clients:`), in canonical order.
SELECTABLE_CLIENTS: tuple[str, ...] = (CLAUDE, COPILOT, VSCODE, OPENCODE)
# The generation clients: one output tree each.
RENDER_TARGETS: tuple[str, ...] = (CLAUDE, COPILOT, OPENCODE)
# Family identifiers valid in `audience:` lists and `<!-- @client: -->` directives
# (format spec §3.1, §6.1). `codex` is a known family without a render target here.
FAMILIES: tuple[str, ...] = (CLAUDE, COPILOT, CODEX, OPENCODE)
# Suffixes allowed in `<KIND>.<client>.md` override files (format spec §2.3).
OVERRIDE_CLIENTS: tuple[str, ...] = RENDER_TARGETS

_RENDER_TARGET_OF: dict[str, str] = {
    CLAUDE: CLAUDE,
    COPILOT: COPILOT,
    VSCODE: COPILOT,
    OPENCODE: OPENCODE,
}


def parse_client(name: str) -> str:
    """Validate a selectable client name (usage error otherwise)."""
    if name not in _RENDER_TARGET_OF:
        known = ", ".join(SELECTABLE_CLIENTS)
        raise UsageError(f"unknown client {name!r} (expected one of: {known})")
    return name


def render_target(client: str) -> str:
    """The output tree a selectable (or render) client writes: vscode -> copilot."""
    return _RENDER_TARGET_OF[parse_client(client)]


def family(client: str) -> str:
    """The audience/directive family of a client: VS Code is part of the Copilot family."""
    return render_target(client)


def render_targets(selection: Iterable[str]) -> tuple[str, ...]:
    """Render targets for a selection, deduplicated, in canonical order.

    An empty selection means every client (the documented default).
    """
    chosen = {render_target(c) for c in selection}
    if not chosen:
        return RENDER_TARGETS
    return tuple(t for t in RENDER_TARGETS if t in chosen)
