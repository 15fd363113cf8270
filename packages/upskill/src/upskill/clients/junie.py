"""JetBrains Junie: instructions are one file (`.junie/AGENTS.md` for the CLI,
`.junie/guidelines.md` for the IDE plugin), so rules have no per-file place; skills
and subagents do."""

from __future__ import annotations

from upskill.clients.base import (
    AGENT,
    SKILL,
    Base,
    Client,
    ConfigFile,
    Detect,
    EntryStyle,
    Layout,
    McpRoute,
    Placement,
    model_only,
)

CLIENT = Client(
    id="junie",
    name="JetBrains Junie",
    family="junie",
    kinds={
        SKILL: Placement(Layout(".agents/skills/{n}/SKILL.md", flat=False)),
        AGENT: Placement(Layout(".junie/agents/{n}.md", flat=True)),
    },
    detect=Detect(paths=(".junie",), home_paths=(".junie",), executables=("junie",)),
    docs=(
        "https://www.jetbrains.com/help/junie/customize-guidelines.html",
        "https://junie.jetbrains.com/docs/agent-skills.html",
        "https://junie.jetbrains.com/docs/junie-cli-subagents.html",
    ),
    agent_fields=model_only,
    passthrough=True,
    mcp=McpRoute(
        EntryStyle.PLAIN,
        "mcpServers",
        project=ConfigFile(".junie/mcp/mcp.json"),
        user=ConfigFile(".junie/mcp/mcp.json", Base.HOME),
        env_ref=None,
    ),
    reads=("AGENTS.md", ".agents/skills/"),
)
