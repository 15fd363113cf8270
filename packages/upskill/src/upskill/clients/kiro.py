"""Kiro: rules are steering files (`inclusion: always | fileMatch` with
`fileMatchPattern`). Custom agents are the Kiro CLI's JSON agent configurations in
`.kiro/agents/<name>.json` (user: `~/.kiro/agents/`): `name`, `description`, the body
as `prompt`, `tools` (built-in tool names; `*` for all), `model`; a `kiro:` passthrough
block adds any other documented key (`allowedTools`, `resources`, `toolsSettings`).
rulesync 17's `kiro` target writes the same shape. The Kiro IDE documents Markdown
agents (`<name>.md`, kiro.dev/docs/chat/subagents) in the same directory; upskill writes
the CLI's form only, since a second file per agent could show it twice to a client that
reads both, and no offline Kiro confirms either way."""

from __future__ import annotations

from typing import Any

from upskill.clients.base import (
    AGENT,
    RULE,
    SKILL,
    AgentView,
    Base,
    Carrier,
    Client,
    ConfigFile,
    Detect,
    EntryStyle,
    Layout,
    McpRoute,
    Placement,
    Site,
)


def _agent_fields(agent: AgentView) -> dict[str, Any]:
    """Kiro CLI gives an agent only the tools its `tools` list names: an agent that
    lists none gets every tool (`*`)."""
    out: dict[str, Any] = {"tools": list(agent.tools) if agent.restricted else ["*"]}
    if agent.model is not None:
        out["model"] = agent.model
    return out


def _rule_fields(paths: tuple[str, ...], site: Site) -> dict[str, Any]:
    if paths:
        return {"inclusion": "fileMatch", "fileMatchPattern": list(paths)}
    return {"inclusion": "always"}


CLIENT = Client(
    id="kiro",
    name="Kiro",
    family="kiro",
    kinds={
        RULE: Placement(Layout(".kiro/steering/{n}.md", flat=True)),
        SKILL: Placement(Layout(".kiro/skills/{n}/SKILL.md", flat=False)),
        AGENT: Placement(Layout(".kiro/agents/{n}.json", flat=True), carrier=Carrier.JSON),
    },
    detect=Detect(paths=(".kiro",), home_paths=(".kiro",), executables=("kiro", "kiro-cli")),
    docs=(
        "https://kiro.dev/docs/steering/",
        "https://kiro.dev/docs/skills/",
        "https://kiro.dev/docs/mcp/configuration",
        "https://kiro.dev/docs/cli/custom-agents/configuration-reference",
        "https://kiro.dev/docs/cli/reference/built-in-tools",
        "https://kiro.dev/docs/cli/models/",
        "rulesync 17 features/subagents/kiro-subagent.ts",
    ),
    # Kiro CLI's built-in tool names (kiro.dev/docs/cli/reference/built-in-tools).
    tools={
        "read": "read",
        "write": "write",
        "edit": "write",
        "bash": "shell",
        "grep": "grep",
        "glob": "glob",
        "web-fetch": "web_fetch",
        "web-search": "web_search",
    },
    # The models kiro.dev/docs/cli/models lists (Claude Opus 4.6, Sonnet 4.6, Haiku 4.5,
    # the generation the other clients' tables name), spelled as the agent `model` field
    # and `kiro-cli chat --model` take them: `kiro-cli chat --list-models` ids
    # (`claude-sonnet-4.6`, dotted, as in the configuration reference's examples).
    models={
        "sonnet": "claude-sonnet-4.6",
        "opus": "claude-opus-4.6",
        "haiku": "claude-haiku-4.5",
    },
    agent_fields=_agent_fields,
    rule_fields=_rule_fields,
    passthrough=True,
    mcp=McpRoute(
        EntryStyle.PLAIN,
        "mcpServers",
        project=ConfigFile(".kiro/settings/mcp.json"),
        user=ConfigFile(".kiro/settings/mcp.json", Base.HOME),
    ),
    reads=("AGENTS.md",),
)
