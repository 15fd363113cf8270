"""Cursor: rules are `.mdc` files whose frontmatter Cursor's own MDC parser reads
(`description`, `globs` unquoted and comma-separated, `alwaysApply`); user rules
live in its settings UI, so a global install has no place for them."""

from __future__ import annotations

from typing import Any

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
    Site,
    model_only,
)


def _rule_fields(paths: tuple[str, ...], site: Site) -> dict[str, Any]:
    if paths:
        return {"globs": ",".join(paths), "alwaysApply": False}
    return {"alwaysApply": True}


CLIENT = Client(
    id="cursor",
    name="Cursor",
    family="cursor",
    kinds={
        RULE: Placement(Layout(".cursor/rules/{n}.mdc", flat=True), at_home=False),
        SKILL: Placement(
            Layout(".agents/skills/{n}/SKILL.md", flat=False),
            Layout(".cursor/skills/{n}/SKILL.md", flat=False),
        ),
        AGENT: Placement(Layout(".cursor/agents/{n}.md", flat=True)),
    },
    detect=Detect(
        paths=(".cursor", ".cursorrules"),
        home_paths=(".cursor",),
        executables=("cursor", "cursor-agent"),
    ),
    docs=(
        "https://cursor.com/docs/rules",
        "https://cursor.com/docs/context/skills",
        "https://cursor.com/docs/mcp",
        "https://cursor.com/docs/context/subagents",
        "rulesync 17 features/rules/cursor-rule.ts (unquoted MDC globs)",
    ),
    rule_fields=_rule_fields,
    raw_keys=frozenset({"globs"}),
    # The legacy single rules file, still read as always-on project rules (cursor.com/docs/rules).
    instructions=(".cursorrules",),
    agent_fields=model_only,
    passthrough=True,
    # cursor.com/docs/context/skills: the Agent Skills fields and three of its own.
    skill_fields=frozenset(
        (*AGENT_SKILLS_FIELDS, "paths", "disable-model-invocation", "user-invocable")
    ),
    mcp=McpRoute(
        EntryStyle.PLAIN,
        "mcpServers",
        project=ConfigFile(".cursor/mcp.json"),
        user=ConfigFile(".cursor/mcp.json", Base.HOME),
        env_ref="${env:NAME}",
    ),
    # Subagents: `.cursor/agents/`, and `.claude/agents/` and `.codex/agents/` for
    # compatibility (cursor.com/docs/context/subagents, "File locations"; read through
    # the table at hiromaily.github.io/docs-ssot/ai/cursor.html, the page itself not
    # being in the stored corpus). No CLI lists them offline, and no source found says
    # which copy of one name wins: every copy counts (`agent_trees` stays empty).
    # Project skills: `.cursor/skills/` too (cursor.com/docs/context/skills), where upskill
    # writes none for Cursor but must not put another client's rendering (Crush reads it).
    reads=(
        "AGENTS.md",
        ".agents/skills/",
        ".claude/skills/",
        ".cursor/skills/",
        ".claude/agents/",
        ".codex/agents/",
    ),
)
