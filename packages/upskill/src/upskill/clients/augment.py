"""Augment's Auggie CLI (read paths verified with auggie 0.36.0, offline): rules in
`.augment/rules/` (`type:` always_apply / agent_requested; a user rule is always
applied and its frontmatter ignored), skills in `.agents/skills` (one entry per name
across `.augment`, `.claude` and `.agents`), MCP servers in `.augment/settings.json`,
whose stdio `env` expands `${VAR}` (headers are sent as written) and whose servers
inherit no environment."""

from __future__ import annotations

from typing import Any

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
    Site,
    model_only,
)


def _rule_fields(paths: tuple[str, ...], site: Site) -> dict[str, Any]:
    """Auggie has no path scope: a scoped rule is offered to the agent by its description
    (`agent_requested`) instead of riding along on every request."""
    if site.home:
        return {}  # user rules are always applied; Auggie ignores their `type`
    return {"type": "agent_requested" if paths else "always_apply"}


CLIENT = Client(
    id="augment",
    name="Augment (Auggie)",
    family="augment",
    kinds={
        RULE: Placement(Layout(".augment/rules/{n}.md", flat=True)),
        SKILL: Placement(Layout(".agents/skills/{n}/SKILL.md", flat=False)),
        AGENT: Placement(Layout(".augment/agents/{n}.md", flat=True)),
    },
    detect=Detect(paths=(".augment",), home_paths=(".augment",), executables=("auggie",)),
    docs=(
        "client-read-paths-more.md (auggie 0.36.0, verified)",
        "https://docs.augmentcode.com/cli/rules",
        "https://docs.augmentcode.com/cli/subagents",
        "https://docs.augmentcode.com/cli/config",
        "auggie mcp list; auggie mcp add (auggie 0.36.0)",
    ),
    rule_fields=_rule_fields,
    agent_fields=model_only,
    passthrough=True,
    mcp=McpRoute(
        EntryStyle.STANDARD,
        "mcpServers",
        project=ConfigFile(".augment/settings.json"),
        user=ConfigFile(".augment/settings.json", Base.HOME),
        expands_headers=False,
    ),
    dedupes=True,
    # The skills in auggie 0.36.0's first request (client_turns.py), one name in several
    # trees: one entry, from `.augment/skills` over `.claude/skills` over `.agents/skills`.
    skill_trees=(".augment/skills/", ".claude/skills/", ".agents/skills/"),
    # At user level, the same request with one copy in each of `~/.augment/skills`,
    # `~/.claude/skills`, `~/.agents/skills` and `~/.config/agents/skills` (the copy
    # shown removed and the turn rerun until none was left): the project order again,
    # and no `~/.config/agents/skills`.
    user_skill_trees=(".augment/skills/", ".claude/skills/", ".agents/skills/"),
    reads=("AGENTS.md", "CLAUDE.md", ".agents/skills/", ".claude/skills/"),
)
