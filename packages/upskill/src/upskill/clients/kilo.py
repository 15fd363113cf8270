"""Kilo Code 7 (opencode-based; read paths verified with the Kilo CLI 7.7.7,
`client-read-paths-more.md`). Its agents and MCP entries are opencode's shapes, but a
project config holding `{env:…}` is skipped whole, so no reference is written: stdio
servers inherit Kilo's environment, and `KEY: ${KEY}` is simply left out."""

from __future__ import annotations

from upskill.clients import opencode
from upskill.clients.base import (
    AGENT,
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
)

CLIENT = Client(
    id="kilo",
    name="Kilo Code",
    family="kilo",
    kinds={
        RULE: Placement(Layout(".kilo/rules/{n}.md", flat=True)),
        SKILL: Placement(Layout(".agents/skills/{n}/SKILL.md", flat=False)),
        # It reads `.kilo/agents` and `.kilocode/agents`, no other client's agent tree
        # (`kilo debug config`, 7.7.7, one agent in every client's tree).
        AGENT: Placement(
            Layout(".kilo/agents/{n}.md", flat=True),
            Layout(".config/kilo/agents/{n}.md", flat=True),
        ),
    },
    detect=Detect(
        paths=(".kilo", ".kilocode", "kilo.json", "kilo.jsonc"),
        home_paths=(".config/kilo", ".kilo"),
        executables=("kilo",),
    ),
    docs=(
        "client-read-paths-more.md (Kilo CLI 7.7.7, verified)",
        "https://kilo.ai/docs/automate/mcp/using-in-kilo-code",
    ),
    tools=opencode.CLIENT.tools,
    models=opencode.CLIENT.models,
    bare_rules=True,
    agent_fields=opencode.CLIENT.agent_fields,
    passthrough=True,
    mcp=McpRoute(
        EntryStyle.OPENCODE,
        "mcp",
        project=ConfigFile("kilo.json", alternatives=("kilo.jsonc",)),
        user=ConfigFile("kilo/kilo.json", Base.CONFIG, ("kilo/kilo.jsonc",)),
        env_ref=None,
        inherits_env=True,
    ),
    dedupes=True,
    # `kilo debug skill` (7.7.7), one name in several trees: one entry, from
    # `.kilo/skills` (or `.kilocode/skills`) over `.agents/skills` over `.claude/skills`.
    skill_trees=(".kilo/skills/", ".agents/skills/", ".claude/skills/"),
    # The same command at user level (the copy in each candidate tree under a test HOME,
    # XDG_CONFIG_HOME at `~/.config`, the listed one removed until none is left):
    # `~/.kilo/skills` over `~/.kilocode/skills`, `~/.config/kilo/skills`,
    # `~/.agents/skills` and `~/.claude/skills`.
    user_skill_trees=(
        ".kilo/skills/",
        ".kilocode/skills/",
        ".config/kilo/skills/",
        ".agents/skills/",
        ".claude/skills/",
    ),
    reads=("AGENTS.md", ".agents/skills/", ".claude/skills/", "opencode.json"),
)
