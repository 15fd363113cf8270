"""Factory's Droid CLI (checked with droid 0.225.2, offline, against a local model
endpoint): instructions are `AGENTS.md` only (`.factory/rules/` is not read), so
upskill compiles the always-on rules into it (user: `~/.factory/AGENTS.md`, which droid
sends as "Personal Global Instructions"); skills in `.agents/skills` (one entry per name
across `.factory/skills` and `.agents/skills`), custom droids in `.factory/droids/`,
MCP servers in `.factory/mcp.json`."""

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
)

CLIENT = Client(
    id="factory",
    name="Factory Droid",
    family="factory",
    kinds={
        RULE: Placement(
            Layout("AGENTS.md", flat=True),
            Layout(".factory/AGENTS.md", flat=True),
            carrier=Carrier.COMPILED,
        ),
        SKILL: Placement(Layout(".agents/skills/{n}/SKILL.md", flat=False)),
        # Only `.factory/droids` of every client's agent tree (its first model request).
        AGENT: Placement(Layout(".factory/droids/{n}.md", flat=True)),
    },
    detect=Detect(paths=(".factory",), home_paths=(".factory",), executables=("droid",)),
    docs=(
        "https://docs.factory.ai/cli/configuration/agents-md",
        "https://docs.factory.ai/cli/configuration/skills",
        "https://docs.factory.ai/cli/configuration/custom-droids",
        "https://docs.factory.ai/cli/configuration/mcp",
        "droid exec against a local endpoint; droid mcp list (droid 0.225.2)",
    ),
    # The tool ids `droid exec --list-tools` prints.
    tools={
        "read": "Read",
        "write": "Create",
        "edit": "Edit",
        "bash": "Execute",
        "grep": "Grep",
        "glob": "Glob",
        "web-fetch": "FetchUrl",
        "web-search": "WebSearch",
    },
    passthrough=True,
    mcp=McpRoute(
        EntryStyle.STANDARD,
        "mcpServers",
        project=ConfigFile(".factory/mcp.json"),
        user=ConfigFile(".factory/mcp.json", Base.HOME),
        env_ref=None,
    ),
    dedupes=True,
    instructions=("AGENTS.md",),
    instructions_home=(".factory/AGENTS.md",),
    # The skills in droid 0.225.2's first model request (client_turns.py), one name in
    # several trees: one entry, from `.factory/skills` over `.agents/skills`.
    skill_trees=(".factory/skills/", ".agents/skills/"),
    # At user level, the same request with one copy in each of `~/.factory/skills`,
    # `~/.agents/skills`, `~/.claude/skills` and `~/.config/agents/skills` (the copy
    # shown removed and the turn rerun until none was left): `~/.factory/skills` over
    # `~/.agents/skills`, nothing else.
    user_skill_trees=(".factory/skills/", ".agents/skills/"),
    reads=("AGENTS.md", ".agents/skills/"),
)
