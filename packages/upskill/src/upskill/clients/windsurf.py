"""Windsurf (Devin Desktop since 2026-06, which still reads `.windsurf/`): rules carry a
`trigger`; its user rules are one file (`global_rules.md`) and its MCP servers are
user-level only, in `~/.codeium/windsurf/mcp_config.json` with `serverUrl` remotes."""

from __future__ import annotations

from typing import Any

from upskill.clients.base import (
    RULE,
    SKILL,
    Base,
    Client,
    ConfigFile,
    Detect,
    EntryStyle,
    Layout,
    McpRoute,
    Placement,
    Site,
)


def _rule_fields(paths: tuple[str, ...], site: Site) -> dict[str, Any]:
    if paths:
        return {"trigger": "glob", "globs": ", ".join(paths)}
    return {"trigger": "always_on"}


CLIENT = Client(
    id="windsurf",
    name="Windsurf",
    family="windsurf",
    kinds={
        RULE: Placement(Layout(".windsurf/rules/{n}.md", flat=True), at_home=False),
        SKILL: Placement(Layout(".agents/skills/{n}/SKILL.md", flat=False)),
    },
    detect=Detect(
        paths=(".windsurf", ".windsurfrules"),
        home_paths=(".codeium/windsurf",),
        executables=("windsurf",),
    ),
    docs=(
        "https://docs.windsurf.com/windsurf/cascade/memories",
        "https://docs.windsurf.com/windsurf/cascade/skills",
        "https://docs.windsurf.com/windsurf/cascade/mcp",
    ),
    rule_fields=_rule_fields,
    passthrough=True,
    mcp=McpRoute(
        EntryStyle.SERVERURL,
        "mcpServers",
        project=None,
        user=ConfigFile(".codeium/windsurf/mcp_config.json", Base.HOME),
        env_ref="${env:NAME}",
    ),
    reads=("AGENTS.md", ".agents/skills/"),
    # The legacy single rules file, read as always-on workspace rules.
    instructions=(".windsurfrules",),
)
