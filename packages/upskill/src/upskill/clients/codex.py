"""OpenAI Codex CLI (verified with codex 0.171.0; docs/upskill/clients.md).

Codex reads instructions from one file, `AGENTS.md` (user: `~/.codex/AGENTS.md`):
upskill compiles the always-on rules into it (`lifecycle.compiled`). Verified with
`codex debug prompt-input` (0.171.0): an `AGENTS.override.md` beside it is read
*instead of* `AGENTS.md` (in a project and in `~/.codex`), and a trusted project's
`.codex/config.toml` `developer_instructions` is sent as well; `.codex/AGENTS.md` in a
project is not read. Copilot CLI reads `AGENTS.md` but neither of those, so where
upskill owns `AGENTS.md` and a rule whose text differs for Copilot would be read twice,
Codex's rules go to `AGENTS.override.md` (`lifecycle.override`); beside a team's own
`AGENTS.md` they cannot, and the install says so (`lifecycle.desired.twice_lines`).
No other client is known to read `~/.codex`, so user scope keeps `~/.codex/AGENTS.md`.
Subagents are TOML role files whose `developer_instructions` hold the body; any other key of
`config.toml` (such as `model`) may appear there too.
"""

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
    Registration,
    model_only,
)

CLIENT = Client(
    id="codex",
    name="Codex CLI",
    family="codex",
    kinds={
        RULE: Placement(
            Layout("AGENTS.md", flat=True),
            Layout(".codex/AGENTS.md", flat=True),
            carrier=Carrier.COMPILED,
            # Read instead of `AGENTS.md` in its directory (project and `~/.codex`, 0.171.0);
            # no other pinned client's package names the file, and Copilot CLI 1.0.102
            # sends none of it (tests/clients/test_codex_override.py).
            override="AGENTS.override.md",
        ),
        # Codex reads `.agents/skills` and `.codex/skills` (user: `~/.agents/skills`), not
        # `.claude/skills`: the shared tree serves it and every other client reading it.
        SKILL: Placement(Layout(".agents/skills/{n}/SKILL.md", flat=False)),
        # Only `.codex/agents` of every client's agent tree (`codex debug prompt-input`).
        AGENT: Placement(
            Layout(".codex/agents/{n}.toml", flat=True),
            carrier=Carrier.TOML,
        ),
    },
    detect=Detect(paths=(".codex",), home_paths=(".codex",), executables=("codex",)),
    docs=(
        "https://developers.openai.com/codex/guides/agents-md",
        "https://developers.openai.com/codex/skills",
        "https://developers.openai.com/codex/subagents",
        "https://developers.openai.com/codex/mcp",
        "codex debug prompt-input; codex mcp list --json (codex 0.171.0)",
    ),
    agent_fields=model_only,
    passthrough=True,
    mcp=McpRoute(
        EntryStyle.CODEX,
        "mcp_servers",
        # Read only in a trusted project. `codex mcp add` writes the user's file only and
        # takes no headers: the file is the route in both scopes.
        project=ConfigFile(".codex/config.toml"),
        user=ConfigFile(".codex/config.toml", Base.HOME),
        remote_types=("http",),  # streamable HTTP only: no SSE
        env_ref=None,  # env_vars / bearer_token_env_var / env_http_headers instead
    ),
    instructions=("AGENTS.md",),
    instructions_home=(".codex/AGENTS.md",),
    # `codex debug prompt-input` (0.171.0) lists a skill from `.codex/skills` and one
    # from `.agents/skills` both, same name or not (no `.claude/skills`).
    skill_trees=(".agents/skills/", ".codex/skills/"),
    # The same command at user level (a copy in each candidate tree under a test HOME):
    # both `~/.agents/skills` and `~/.codex/skills` are listed.
    user_skill_trees=(".agents/skills/", ".codex/skills/"),
    reads=(".agents/skills/", "AGENTS.md"),
    # `[[skills.config]]` with a copy's `path` (`~` expanded) and `enabled = false` hides
    # that copy, from the user's config only: the same entry in a trusted project's
    # `.codex/config.toml` changes nothing (0.171.0, tests/clients/test_unservable_skills.py).
    registration=Registration(
        skill_switch=".codex/config.toml", skill_switch_key=("skills", "config")
    ),
)
