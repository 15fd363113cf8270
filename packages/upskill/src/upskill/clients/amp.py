"""Amp: instructions are `AGENTS.md` files only (upskill compiles the always-on rules
into one), and it has no user-defined subagents.
Skills: `.agents/skills` (user: `~/.config/agents/skills`). MCP servers sit under the
literal dotted key `amp.mcpServers` of its settings file."""

from __future__ import annotations

from upskill.clients.base import (
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
)

CLIENT = Client(
    id="amp",
    name="Amp",
    family="amp",
    kinds={
        RULE: Placement(
            Layout("AGENTS.md", flat=True),
            Layout(".config/amp/AGENTS.md", flat=True),
            carrier=Carrier.COMPILED,
        ),
        SKILL: Placement(
            Layout(".agents/skills/{n}/SKILL.md", flat=False),
            Layout(".config/agents/skills/{n}/SKILL.md", flat=False),
        ),
    },
    detect=Detect(paths=(".amp",), home_paths=(".config/amp",), executables=("amp",)),
    docs=("https://ampcode.com/manual",),
    passthrough=True,
    mcp=McpRoute(
        EntryStyle.PLAIN,
        "amp.mcpServers",
        project=ConfigFile(".amp/settings.json", alternatives=(".amp/settings.jsonc",)),
        user=ConfigFile("amp/settings.json", Base.CONFIG, ("amp/settings.jsonc",)),
        env_ref=None,
    ),
    # `amp skill list` (0.0.1790142911), one name in both trees: one entry, from
    # `.agents/skills` over `.claude/skills`; it reads no `.amp/skills`.
    skill_trees=(".agents/skills/", ".claude/skills/"),
    # The same command at user level (the copy in each candidate tree under a test HOME,
    # XDG_CONFIG_HOME at `~/.config`, the listed one removed until none is left):
    # `~/.config/agents/skills` over `~/.agents/skills`, `~/.config/amp/skills` and
    # `~/.claude/skills`.
    user_skill_trees=(
        ".config/agents/skills/",
        ".agents/skills/",
        ".config/amp/skills/",
        ".claude/skills/",
    ),
    dedupes=True,
    reads=("AGENTS.md", ".agents/skills/", ".claude/skills/"),
)
