"""Cline: conditional rules in `.clinerules/` (`paths:`), skills in `.cline/skills`, and
MCP servers only in the CLI's user settings file; no documented subagent files.

Skills, checked with cline 3.0.65 offline (`client_turns.cline`): its first model
request names the skills without their descriptions ("Available skills: dx."), so the
local endpoint answers it with a call of its `skills` tool and the next request holds
the file Cline loaded. With one copy of a name in each candidate tree it lists the name
once; in a project it loads `.agents/skills` over `.cline/skills` over
`.clinerules/skills` and reads no `.claude/skills` (its bundle lists `.clinerules`,
`.cline`, `.agents` under the workspace, then `~/.cline`, `~/.agents`); at user level
`~/.agents/skills` over `~/.cline/skills`, and no `~/.claude/skills`,
`~/.config/agents/skills`, `~/.cline/data/skills` or `~/Documents/Cline/Skills`.
`.clinerules/skills` is left out of `skill_trees`: it sits in Cline's rules tree, and
upskill writes no skill there."""

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
    dedupes=True,
    skill_trees=(".agents/skills/", ".cline/skills/"),
    user_skill_trees=(".agents/skills/", ".cline/skills/"),
    reads=("AGENTS.md", ".agents/skills/"),
)
