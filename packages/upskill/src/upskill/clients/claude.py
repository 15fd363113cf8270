"""Claude Code (verified with claude-code 2.1.197; docs/upskill/clients.md)."""

from __future__ import annotations

from typing import Any

from upskill.clients.base import (
    AGENT,
    AGENT_SKILLS_FIELDS,
    RULE,
    SKILL,
    AgentView,
    Base,
    Client,
    ConfigFile,
    Detect,
    EntryStyle,
    Layout,
    McpCli,
    McpRoute,
    Placement,
    PluginRoute,
    PluginStyle,
    Registration,
    Site,
    paths_list,
    tools_list,
)

# Copilot CLI also loads a project's `.claude/rules/*.md` as instructions (it maps `paths:`
# to `applyTo`), so a rule written for both would reach it twice, Claude's text included.
# It skips an instructions file whose frontmatter excludes its agent: Claude's copy says so
# whenever Copilot gets its own copy. (Skills and agents it also reads from `.claude/` are
# deduplicated by name, its own copy first: nothing to do.)
COPILOT_EXCLUDE = ("excludeAgent", "coding-agent")


def _rule_fields(paths: tuple[str, ...], site: Site) -> dict[str, Any]:
    out = paths_list(paths, site)
    if "copilot" in site.alongside and not site.home:
        out[COPILOT_EXCLUDE[0]] = COPILOT_EXCLUDE[1]
    return out


def _agent_fields(agent: AgentView) -> dict[str, Any]:
    out = tools_list(agent)
    if agent.preload_skills:
        out["skills"] = list(agent.preload_skills)
    return out


CLIENT = Client(
    id="claude",
    name="Claude Code",
    family="claude",
    kinds={
        RULE: Placement(Layout(".claude/rules/{n}.md", flat=True)),
        SKILL: Placement(Layout(".claude/skills/{n}/SKILL.md", flat=False)),
        AGENT: Placement(Layout(".claude/agents/{n}.md", flat=True)),
    },
    detect=Detect(
        paths=(".claude", "CLAUDE.md", ".mcp.json"),
        home_paths=(".claude",),
        executables=("claude",),
    ),
    docs=(
        "https://docs.claude.com/en/docs/claude-code/memory",
        "https://docs.claude.com/en/docs/claude-code/skills",
        "https://docs.claude.com/en/docs/claude-code/sub-agents",
        "https://docs.claude.com/en/docs/claude-code/mcp",
    ),
    tools={
        "read": "Read",
        "write": "Write",
        "edit": "Edit",
        "bash": "Bash",
        "grep": "Grep",
        "glob": "Glob",
        "web-fetch": "WebFetch",
        "web-search": "WebSearch",
    },
    # Claude Code resolves its own aliases to the latest model of the family.
    models={"sonnet": "sonnet", "opus": "opus", "haiku": "haiku"},
    rule_fields=_rule_fields,
    agent_fields=_agent_fields,
    passthrough=True,
    skills_field=True,
    # Claude Code implements the Agent Skills fields and extends them (its skills page,
    # "Frontmatter reference").
    skill_fields=frozenset(
        (
            *AGENT_SKILLS_FIELDS,
            "when_to_use",
            "argument-hint",
            "arguments",
            "disable-model-invocation",
            "user-invocable",
            "model",
            "effort",
            "context",
            "agent",
            "hooks",
            "paths",
            "shell",
        )
    ),
    mcp=McpRoute(
        EntryStyle.STANDARD,
        "mcpServers",
        project=ConfigFile(".mcp.json"),
        user=ConfigFile(".claude.json", Base.HOME),
        cli=McpCli(
            "claude",
            add_scopes=frozenset({"project", "user"}),
            remove_scopes=frozenset({"project", "user"}),
            scope_flag=True,
            env_flag="-e",
            header_flag="-H",
            lists=True,
        ),
        per_project="projects",
    ),
    plugins=PluginRoute(
        PluginStyle.MARKETPLACE, "claude", scope_flag=True, listed_in=".claude/settings.json"
    ),
    registration=Registration(imports_agents_md="CLAUDE.md"),
    instructions=("CLAUDE.md", ".claude/CLAUDE.md"),
    instructions_home=(".claude/CLAUDE.md",),
    # Claude Code 2.1.197's first model request (client_turns.claude) sends, in a project,
    # `CLAUDE.md`, `.claude/CLAUDE.md`, `.claude/rules/*.md`, the `.claude/agents` agents
    # and the `.claude/skills` skills; `AGENTS.md` only through CLAUDE.md's `@AGENTS.md`
    # and no `.agents/skills`. At user level `~/.claude/CLAUDE.md`, `~/.claude/rules`,
    # `~/.claude/agents` and, of one skill copied into `~/.claude/skills`,
    # `~/.agents/skills`, `~/.config/agents/skills` and `~/.config/claude/skills`, the
    # `~/.claude/skills` copy only, and with it removed none (a `SKILL.md` directory in
    # the legacy `~/.claude/commands` is listed too; upskill writes none there).
    reads=("AGENTS.md",),
    skill_trees=(".claude/skills/",),
    user_skill_trees=(".claude/skills/",),
    baseline=True,
)
