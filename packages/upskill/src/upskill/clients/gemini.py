"""Gemini CLI (verified with gemini-cli 0.61.0; docs/upskill/clients.md).

Gemini reads instructions from one file, `GEMINI.md` (user: `~/.gemini/GEMINI.md`;
`AGENTS.md` only when configured), and follows the `@path` imports in it. Copilot
CLI reads a project's `GEMINI.md` as well, and does not follow imports: so upskill
compiles the always-on rules into `.gemini/upskill.md`, which only Gemini reads, and
the project's `GEMINI.md` holds the one line `@.gemini/upskill.md`
(`lifecycle.compiled`). Each rule then reaches Gemini once, and Copilot once, from
its own copy. At user level Copilot reads nothing of `~/.gemini`: the rules are
compiled into `~/.gemini/GEMINI.md` itself. Its subagent schema is strict (unknown
keys are errors): name, description, tools, model, temperature, max_turns,
timeout_mins.
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
    ContextFiles,
    Detect,
    EntryStyle,
    Layout,
    McpRoute,
    Placement,
)

CLIENT = Client(
    id="gemini",
    name="Gemini CLI",
    family="gemini",
    kinds={
        RULE: Placement(
            Layout(".gemini/upskill.md", flat=True),
            Layout(".gemini/GEMINI.md", flat=True),
            carrier=Carrier.COMPILED,
            imported_by="GEMINI.md",
        ),
        SKILL: Placement(Layout(".agents/skills/{n}/SKILL.md", flat=False)),
        AGENT: Placement(Layout(".gemini/agents/{n}.md", flat=True)),
    },
    detect=Detect(paths=(".gemini", "GEMINI.md"), home_paths=(".gemini",), executables=("gemini",)),
    docs=(
        "https://geminicli.com/docs/cli/gemini-md/",
        "https://geminicli.com/docs/reference/memport",
        "https://geminicli.com/docs/cli/skills/",
        "https://geminicli.com/docs/core/subagents/",
        "https://geminicli.com/docs/tools/mcp-server/",
        "gemini mcp list; bundle localAgentSchema (gemini-cli 0.61.0)",
    ),
    # Built-in tool names (gemini-cli 0.61.0 `*_TOOL_NAME` constants).
    tools={
        "read": "read_file",
        "write": "write_file",
        "edit": "replace",
        "bash": "run_shell_command",
        "grep": "grep_search",
        "glob": "glob",
        "web-fetch": "web_fetch",
        "web-search": "google_web_search",
    },
    passthrough=True,
    mcp=McpRoute(
        EntryStyle.GEMINI,
        "mcpServers",
        # Read only in a trusted folder. `gemini mcp add -s project` rewrites the file
        # keeping only the server it adds (gemini-cli 0.61.0): the file is the route.
        project=ConfigFile(".gemini/settings.json"),
        user=ConfigFile(".gemini/settings.json", Base.HOME),
    ),
    instructions=("GEMINI.md", ".gemini/upskill.md"),
    instructions_home=(".gemini/GEMINI.md",),
    # `gemini skills list` (0.61.0), one name in both trees: one entry, from
    # `.agents/skills` ("Skill conflict detected: ... is overriding the same skill from
    # .gemini/skills"); its own tree cannot win over the shared one. No `.claude/skills`.
    skill_trees=(".agents/skills/", ".gemini/skills/"),
    # The same command at user level (the copy in each candidate tree under a test HOME,
    # the listed one removed until none is left): `~/.agents/skills` over
    # `~/.gemini/skills`.
    user_skill_trees=(".agents/skills/", ".gemini/skills/"),
    dedupes=True,
    reads=(".agents/skills/", "GEMINI.md"),
    # geminicli.com/docs/cli/gemini-md ("context.fileName"): with `AGENTS.md`
    # listed there Gemini reads it too, so a rule compiled into it reaches Gemini there.
    context_files=ContextFiles(".gemini/settings.json", ("context", "fileName")),
    # geminicli.com/docs/reference/memport; verified with gemini-cli 0.61.0 offline:
    # "ask @security-team" reaches the model as "ask <!-- Import failed: security-team
    # - ENOENT ... -->" (tests/clients/test_gemini_imports.py).
    at_imports=True,
)
