"""Kiro: rules are steering files (`inclusion: always | fileMatch` with
`fileMatchPattern`). Its IDE reads Markdown subagents and its CLI JSON ones from the
same `.kiro/agents/`, so upskill writes none there rather than break one of them."""

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
        return {"inclusion": "fileMatch", "fileMatchPattern": list(paths)}
    return {"inclusion": "always"}


CLIENT = Client(
    id="kiro",
    name="Kiro",
    family="kiro",
    kinds={
        RULE: Placement(Layout(".kiro/steering/{n}.md", flat=True)),
        SKILL: Placement(Layout(".kiro/skills/{n}/SKILL.md", flat=False)),
    },
    detect=Detect(paths=(".kiro",), home_paths=(".kiro",), executables=("kiro", "kiro-cli")),
    docs=(
        "https://kiro.dev/docs/steering/",
        "https://kiro.dev/docs/skills/",
        "https://kiro.dev/docs/mcp/configuration",
    ),
    rule_fields=_rule_fields,
    passthrough=True,
    mcp=McpRoute(
        EntryStyle.PLAIN,
        "mcpServers",
        project=ConfigFile(".kiro/settings/mcp.json"),
        user=ConfigFile(".kiro/settings/mcp.json", Base.HOME),
    ),
    reads=("AGENTS.md",),
)
