"""opencode (verified with opencode-ai 1.18.33; docs/upskill/clients.md)."""

from __future__ import annotations

from typing import Any

from upskill.clients.base import (
    AGENT,
    RULE,
    SKILL,
    AgentView,
    Base,
    Client,
    ConfigFile,
    Detect,
    EntryStyle,
    Layout,
    McpRoute,
    Placement,
    PluginRoute,
    PluginStyle,
    Registration,
)

DEFAULT_MODE = "subagent"


def _agent_fields(agent: AgentView) -> dict[str, Any]:
    out: dict[str, Any] = {"mode": agent.mode or DEFAULT_MODE}
    if agent.model is not None:
        out["model"] = agent.model
    if agent.restricted:
        # opencode allows every tool by default (`opencode debug agent` shows
        # ('*', '*', 'allow')): what `tools:` does not grant must be denied explicitly.
        every = dict.fromkeys(agent.every_tool, "deny")
        out["permission"] = every | dict.fromkeys(agent.tools, "allow")
    elif agent.tools:
        out["permission"] = dict.fromkeys(agent.tools, "allow")
    return out


CLIENT = Client(
    id="opencode",
    name="opencode",
    family="opencode",
    kinds={
        # Rules reach opencode through `instructions` globs in opencode.json
        # (`lifecycle/ancillary.py`).
        RULE: Placement(Layout(".agents/rules/{n}/RULE.md", flat=False)),
        SKILL: Placement(Layout(".agents/skills/{n}/SKILL.md", flat=False)),
        # It reads `.opencode/agents` (and the older `.opencode/agent`), no other client's
        # agent tree (`opencode debug config`, 1.18.33, one agent in every client's tree).
        AGENT: Placement(Layout(".opencode/agents/{n}.md", flat=True)),
    },
    detect=Detect(
        paths=(".opencode", "opencode.json", "opencode.jsonc"),
        home_paths=(".config/opencode",),
        executables=("opencode",),
    ),
    docs=(
        "https://opencode.ai/docs/rules/",
        "https://opencode.ai/docs/skills/",
        "https://opencode.ai/docs/agents/",
        "https://opencode.ai/docs/mcp-servers/",
    ),
    tools={
        "read": "read",
        "write": "edit",  # opencode's permission model rolls write into edit
        "edit": "edit",
        "bash": "bash",
        "grep": "grep",
        "glob": "glob",
        "web-fetch": "webfetch",
        "web-search": "websearch",
    },
    models={
        "sonnet": "anthropic/claude-sonnet-4-6",
        "opus": "anthropic/claude-opus-4-6",
        "haiku": "anthropic/claude-haiku-4-5",
    },
    agent_fields=_agent_fields,
    passthrough=True,
    mcp=McpRoute(
        EntryStyle.OPENCODE,
        "mcp",
        project=ConfigFile("opencode.json", alternatives=("opencode.jsonc",)),
        user=ConfigFile("opencode/opencode.json", Base.CONFIG, ("opencode/opencode.jsonc",)),
        env_ref="{env:NAME}",
    ),
    plugins=PluginRoute(PluginStyle.OPENCODE, "opencode"),
    dedupes=True,
    # Rules reach opencode through `instructions` in opencode.json. It globs an absolute
    # (or `~/`) entry in its last path component only, so the user file lists each rule.
    registration=Registration(
        rule_list="opencode.json",
        rule_glob=".agents/rules/**/RULE.md",
        rule_list_home=".config/opencode/opencode.json",
    ),
    instructions=("AGENTS.md",),
    instructions_home=(".config/opencode/AGENTS.md",),
    # `opencode debug skill` (1.18.33), one name in several trees: one entry, usually from
    # `.opencode/skills` over `.agents/skills` over `.claude/skills` but not always (20
    # runs, `.opencode` and `.claude` copies: 15 and 5). Its bundled skill loader collects
    # the matches in that order, then parses them all at once (`Effect.forEach(matches,
    # add, {concurrency: "unbounded"})` in `loadSkills`, packages/opencode/src/skill of
    # the opencode repository) and the last parse to finish sets the entry.
    skill_trees=(".opencode/skills/", ".agents/skills/", ".claude/skills/"),
    skill_order=False,
    # The same command at user level (the copy in each candidate tree under a test HOME,
    # XDG_CONFIG_HOME at `~/.config`, the listed one removed until none is left) lists
    # one entry from `~/.config/opencode/skills`, `~/.agents/skills`, `~/.opencode/skills`
    # or `~/.claude/skills`, a different one from run to run (the same loader).
    user_skill_trees=(
        ".config/opencode/skills/",
        ".agents/skills/",
        ".opencode/skills/",
        ".claude/skills/",
    ),
    user_skill_order=False,
    reads=(".claude/skills/", ".agents/skills/", "AGENTS.md", "CLAUDE.md"),
    baseline=True,
)
