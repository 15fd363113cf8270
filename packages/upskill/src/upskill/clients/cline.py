"""Cline: conditional rules in `.clinerules/` (`paths:`), skills in `.cline/skills`, and
MCP servers only in the CLI's user settings file; no documented subagent files."""

from __future__ import annotations

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
    paths_list,
)

CLIENT = Client(
    id="cline",
    name="Cline",
    family="cline",
    kinds={
        RULE: Placement(
            Layout(".clinerules/{n}.md", flat=True),
            Layout("Documents/Cline/Rules/{n}.md", flat=True),
        ),
        SKILL: Placement(Layout(".cline/skills/{n}/SKILL.md", flat=False)),
    },
    detect=Detect(
        paths=(".clinerules", ".cline"),
        home_paths=(".cline", "Documents/Cline"),
        executables=("cline",),
    ),
    docs=(
        "https://docs.cline.bot/features/cline-rules/conditional-rules",
        "https://docs.cline.bot/customization/skills",
        "https://docs.cline.bot/mcp/configuring-mcp-servers",
    ),
    rule_fields=paths_list,
    passthrough=True,
    mcp=McpRoute(
        EntryStyle.PLAIN,
        "mcpServers",
        project=None,
        user=ConfigFile(".cline/data/settings/cline_mcp_settings.json", Base.HOME),
        env_ref=None,
    ),
    reads=("AGENTS.md", ".claude/skills/"),
)
