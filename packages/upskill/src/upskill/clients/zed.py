"""Zed: it reads the first of `.rules`, `.cursorrules`, …, `AGENTS.md` as its only
instructions, so the always-on rules are compiled into `AGENTS.md` (any file earlier
in that list hides it); skills in `.agents/skills`; MCP servers
are `context_servers` in its settings (no `type`, no SSE)."""

from __future__ import annotations

from upskill.clients.base import (
    AGENT_SKILLS_FIELDS,
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
    id="zed",
    name="Zed",
    family="zed",
    kinds={
        # Zed reads only the first of its instruction files; `AGENTS.md` is on its list.
        RULE: Placement(Layout("AGENTS.md", flat=True), carrier=Carrier.COMPILED, at_home=False),
        SKILL: Placement(Layout(".agents/skills/{n}/SKILL.md", flat=False)),
    },
    detect=Detect(paths=(".zed", ".rules"), home_paths=(".config/zed",), executables=("zed",)),
    docs=(
        "https://zed.dev/docs/ai/rules",
        "https://zed.dev/docs/ai/skills",
        "https://zed.dev/docs/ai/mcp",
    ),
    passthrough=True,
    # zed.dev/docs/ai/skills: the Agent Skills fields and `disable-model-invocation`.
    skill_fields=frozenset((*AGENT_SKILLS_FIELDS, "disable-model-invocation")),
    mcp=McpRoute(
        EntryStyle.PLAIN,
        "context_servers",
        project=ConfigFile(".zed/settings.json"),
        user=ConfigFile("zed/settings.json", Base.CONFIG),
        remote_types=("http",),
        env_ref=None,
    ),
    reads=(
        ".rules",
        ".cursorrules",
        ".windsurfrules",
        ".clinerules",
        ".github/copilot-instructions.md",
        "AGENTS.md",
        "CLAUDE.md",
        "GEMINI.md",
        ".agents/skills/",
    ),
)
