"""Qwen Code (read paths verified with qwen 0.24.4, `client-read-paths-more.md`):
conditional rules in `.qwen/rules/` (`paths:`), skills in `.agents/skills`, agents in
`.qwen/agents`. MCP servers go to `.qwen/settings.json`, where `${VAR}` is expanded
(it is not in the project `.mcp.json` Qwen also reads)."""

from __future__ import annotations

from upskill.clients.base import (
    AGENT,
    AGENT_SKILLS_FIELDS,
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
    model_only,
    paths_list,
)

CLIENT = Client(
    id="qwen",
    name="Qwen Code",
    family="qwen",
    kinds={
        RULE: Placement(Layout(".qwen/rules/{n}.md", flat=True)),
        SKILL: Placement(Layout(".agents/skills/{n}/SKILL.md", flat=False)),
        AGENT: Placement(Layout(".qwen/agents/{n}.md", flat=True)),
    },
    detect=Detect(paths=(".qwen", "QWEN.md"), home_paths=(".qwen",), executables=("qwen",)),
    docs=(
        "client-read-paths-more.md (qwen 0.24.4, verified)",
        "https://qwenlm.github.io/qwen-code-docs/en/users/mcp/",
    ),
    rule_fields=paths_list,
    agent_fields=model_only,
    passthrough=True,
    # rulesync 17 features/skills/qwencode-skill.ts: the Agent Skills fields and these.
    skill_fields=frozenset(
        (
            *AGENT_SKILLS_FIELDS,
            "priority",
            "paths",
            "user-invocable",
            "disable-model-invocation",
            "allowedTools",
            "model",
            "hooks",
            "when_to_use",
            "argument-hint",
        )
    ),
    mcp=McpRoute(
        EntryStyle.HTTPURL,
        "mcpServers",
        project=ConfigFile(".qwen/settings.json"),
        user=ConfigFile(".qwen/settings.json", Base.HOME),
        inherits_env=True,
    ),
    dedupes=True,
    instructions=("QWEN.md",),
    instructions_home=(".qwen/QWEN.md",),
    # The skills in qwen 0.24.4's first model request (tests/support/client_turns.py),
    # one name in both trees: one entry, from `.qwen/skills` over `.agents/skills`.
    skill_trees=(".qwen/skills/", ".agents/skills/"),
    # At user level, the same request with one copy in each of `~/.qwen/skills`,
    # `~/.agents/skills`, `~/.claude/skills` and `~/.config/agents/skills` (the copy
    # shown removed and the turn rerun until none was left): `~/.qwen/skills` over
    # `~/.agents/skills`, nothing else (its bundle's SKILL_PROVIDER_CONFIG_DIRS).
    user_skill_trees=(".qwen/skills/", ".agents/skills/"),
    reads=("AGENTS.md", "QWEN.md", ".agents/skills/", ".mcp.json"),
)
