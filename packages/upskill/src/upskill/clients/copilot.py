"""GitHub Copilot CLI and the coding agent (verified with copilot 1.0.102;
docs/upskill/clients.md). VS Code reads the same `.github/**` tree (`vscode.py`)."""

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
    McpCli,
    McpRoute,
    Placement,
    PluginRoute,
    PluginStyle,
    Site,
)

KINDS = {
    # Copilot CLI reads user-level content from ~/.copilot, never ~/.github.
    RULE: Placement(
        Layout(".github/instructions/{n}.instructions.md", flat=True),
        Layout(".copilot/instructions/{n}.instructions.md", flat=True),
    ),
    SKILL: Placement(
        Layout(".github/skills/{n}/SKILL.md", flat=False),
        Layout(".copilot/skills/{n}/SKILL.md", flat=False),
    ),
    AGENT: Placement(
        Layout(".github/agents/{n}.agent.md", flat=True),
        Layout(".copilot/agents/{n}.agent.md", flat=True),
    ),
}

# GitHub's documented custom-agent tool aliases (custom-agents-configuration, "Tool
# aliases"): the client's own documentation wins over upstream upskill's
# `shell`/`fetch`/`web_search`, which dropped read, edit and search.
TOOLS = {
    "read": "read",
    "write": "edit",
    "edit": "edit",
    "bash": "execute",
    "grep": "search",
    "glob": "search",
    "web-fetch": "web",
    "web-search": "web",
}

# Copilot wants its own model ID, dotted, as `copilot --model` lists them.
MODELS = {
    "sonnet": "claude-sonnet-4.6",
    "opus": "claude-opus-4.6",
    "haiku": "claude-haiku-4.5",
}


def rule_fields(paths: tuple[str, ...], site: Site) -> dict[str, Any]:
    return {"applyTo": ", ".join(paths) if paths else "**"}


CLIENT = Client(
    id="copilot",
    name="GitHub Copilot CLI",
    family="copilot",
    kinds=KINDS,
    detect=Detect(
        paths=(".github/copilot-instructions.md", ".github/instructions", ".github/agents"),
        home_paths=(".copilot",),
        executables=("copilot",),
    ),
    docs=(
        "https://docs.github.com/en/copilot/how-tos/use-copilot-agents/use-copilot-cli",
        "https://docs.github.com/en/copilot/reference/custom-agents-configuration",
    ),
    tools=TOOLS,
    models=MODELS,
    rule_fields=rule_fields,
    passthrough=True,
    # docs.github.com ".../add-skills" and code.visualstudio.com agent-skills (via
    # rulesync 17 features/skills/copilot-skill.ts): the Agent Skills fields and these.
    skill_fields=frozenset(
        (
            *AGENT_SKILLS_FIELDS,
            "argument-hint",
            "user-invocable",
            "disable-model-invocation",
            "context",
        )
    ),
    mcp=McpRoute(
        EntryStyle.STANDARD,
        "mcpServers",
        # Copilot CLI lists a project's `.mcp.json` as workspace servers: the entry is
        # shared with Claude Code, in the same shape.
        project=ConfigFile(".mcp.json"),
        user=ConfigFile(".copilot/mcp-config.json", Base.HOME),
        # `copilot mcp add` writes the user's config only.
        cli=McpCli(
            "copilot",
            add_scopes=frozenset({"user"}),
            remove_scopes=frozenset({"user"}),
            scope_flag=False,
            env_flag="--env",
            header_flag="--header",
        ),
    ),
    plugins=PluginRoute(PluginStyle.MARKETPLACE, "copilot"),
    dedupes=True,
    instructions=(".github/copilot-instructions.md",),
    instructions_home=(".copilot/copilot-instructions.md",),
    # `copilot skill list` (1.0.102), one name in several trees with different
    # descriptions: one entry, from `.github/skills` over `.agents/skills` over
    # `.claude/skills`.
    skill_trees=(".github/skills/", ".agents/skills/", ".claude/skills/"),
    # The same command at user level (the copy in each candidate tree under a test HOME,
    # the listed one removed until none is left): `~/.copilot/skills` over
    # `~/.agents/skills`; no `~/.claude/skills`.
    user_skill_trees=(".copilot/skills/", ".agents/skills/"),
    # One agent name in `.github/agents` and `.claude/agents`, each with its own
    # description (1.0.102): `copilot --agent <unknown>` names it once, and the turn's
    # request to a local model endpoint carries the `.github/agents` description only.
    # At user level it reads `~/.copilot/agents` and no `~/.claude/agents` (same probe).
    agent_trees=(".github/agents/", ".claude/agents/"),
    reads=(
        ".claude/rules/",
        ".claude/skills/",
        ".claude/agents/",
        ".agents/skills/",
        "CLAUDE.md",
        "AGENTS.md",
        "GEMINI.md",
    ),
    # A `CLAUDE.md` holding `@AGENTS.md` (1.0.102, a turn against a local model endpoint):
    # the request carries `<imported_custom_instruction source=".../AGENTS.md">` beside
    # its own read of `AGENTS.md` (tests/clients/test_codex_override.py).
    follows_imports=("CLAUDE.md",),
    baseline=True,
)
