"""JetBrains Junie: instructions are one file (`.junie/AGENTS.md` for the CLI,
`.junie/guidelines.md` for the IDE plugin) and the root `AGENTS.md`, where upskill
compiles the always-on rules; skills and subagents have per-file places."""

from __future__ import annotations

from upskill.clients.base import (
    AGENT,
    RULE,
    SKILL,
    Base,
    Carrier,
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
        # The CLI reads `AGENTS.md` at the project root; no user-level file is documented.
        RULE: Placement(Layout("AGENTS.md", flat=True), carrier=Carrier.COMPILED, at_home=False),
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
