"""Charm's Crush (npm `@charmland/crush`). Its npm package downloads the binary from
GitHub releases in a postinstall step, which this workplace cannot reach, so no fact
here was seen from the running client: each one is read in Crush's source (the
charmbracelet/crush tree at v0.90.0 + 5 commits, commit 37f36e93824e, 2026-08-21) and
README, and agrees
with rulesync 17's Crush target. The function named beside a fact is where it is.

Instructions: `internal/config/config.go` `defaultContextPaths` lists every file of a
project it puts in the system prompt, from the working directory only: `AGENTS.md`,
`CRUSH.md`, `CRUSH.local.md`, `CLAUDE.md`, `CLAUDE.local.md`, `GEMINI.md`,
`.cursorrules`, `.github/copilot-instructions.md`, and every file under
`.cursor/rules/` (`prompt.processContextPath` walks a directory). The paths are
sorted and a path is read once per lower-cased spelling, so on a case-sensitive file
system the all-capitals names are the ones read (`prompt.loadContextFiles`). At user
level it reads `~/.config/crush/CRUSH.md` and `~/.config/AGENTS.md`
(`config.setDefaults`). Every file found is put in the prompt whole, one after the
other (`templates/coder.md.tpl` `<file path=...>`): `CRUSH.md` and `AGENTS.md` are both
read, neither instead of the other, and `AGENTS.override.md` is not read at all.
upskill compiles the always-on rules into the project's `AGENTS.md`, which Codex, Amp,
Junie, Zed and Factory share, and at user level into `~/.config/crush/CRUSH.md`, which
only Crush reads. Beside a team's own `AGENTS.md` without a managed block they go to
`CRUSH.md` instead (`Placement.alternative`), which only Crush reads: never both, so
Crush reads each once; a team's own `CRUSH.md` is never written either.

`.cursor/rules/` is read like any context path: every file under it, whatever its name,
whole, its frontmatter included as text (`processFile` reads bytes; nothing parses
`globs:` or `alwaysApply:`). A path-scoped rule Cursor gets as `.cursor/rules/<n>.mdc`
therefore reaches Crush always-on, and a rule Cursor keeps a copy of reaches Crush
there too.

Skills: project `.agents/skills`, `.crush/skills`, `.claude/skills` and
`.cursor/skills` (`config.ProjectSkillsDir`); user `~/.config/crush/skills`,
`~/.config/agents/skills`, `~/.agents/skills` and `~/.claude/skills`
(`config.GlobalSkillsDirs`), the user trees read in a project too. Every SKILL.md
found is sorted by its directory's lower-cased path and `skills.Deduplicate` keeps
the last copy of a name: one copy per name, the one whose path sorts last.

Agents: none. Crush's `coder` and `task` agents are built in (`Config.Agents` is not
read from any file), so an install selecting Crush reports the agents it cannot take.

MCP: the `mcp` key of `.crush.json` or `crush.json` in the project (both are merged,
`.crush.json` on top; strict JSON) and `~/.config/crush/crush.json`; entries are
`{"type": "stdio", command, args, env}` or `{"type": "http"|"sse", url, headers}`
(`config.MCPConfig`). `env`, `args`, `command`, `url` and `headers` are shell-expanded
when a server starts (`config/resolve.go`, `shell/expand.go`), so `${VAR}` works there
but so would `$(...)`: values are written escaped, and a server holding command
substitution is refused (`mcp/shellvalue.py` has the facts). A stdio server inherits
Crush's environment (`mcp/init.go`: `os.Environ()` plus `env`). Crush has no `mcp`
subcommand: the file is the route in both scopes."""

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
    id="crush",
    name="Crush",
    family="crush",
    kinds={
        RULE: Placement(
            Layout("AGENTS.md", flat=True),
            Layout(".config/crush/CRUSH.md", flat=True),
            carrier=Carrier.COMPILED,
            alternative="CRUSH.md",
        ),
        SKILL: Placement(Layout(".agents/skills/{n}/SKILL.md", flat=False)),
    },
    detect=Detect(
        paths=(".crush", "CRUSH.md", ".crush.json", "crush.json", ".crushrc", "crushrc"),
        home_paths=(".config/crush",),
        executables=("crush",),
    ),
    docs=(
        "https://github.com/charmbracelet/crush/blob/main/README.md",
        "https://github.com/charmbracelet/crush/blob/main/docs/config/README.md",
        "crush source at v0.90.0+5: internal/config/{config,load}.go, "
        "internal/agent/prompt/prompt.go, internal/skills/skills.go (not run: the npm "
        "package downloads its binary from GitHub releases)",
        "rulesync 17 features/{rules/crush-rule,skills/crush-skill,mcp/crush-mcp}.ts",
    ),
    passthrough=True,
    # `skills.Skill` (internal/skills/skills.go): the Agent Skills fields and these two.
    skill_fields=frozenset((*AGENT_SKILLS_FIELDS, "user-invocable", "disable-model-invocation")),
    mcp=McpRoute(
        EntryStyle.STANDARD,
        "mcp",
        project=ConfigFile(".crush.json", alternatives=("crush.json",)),
        user=ConfigFile("crush/crush.json", Base.CONFIG),
        inherits_env=True,
        shell_expands=True,
    ),
    instructions=("AGENTS.md", "CRUSH.md"),
    instructions_home=(".config/crush/CRUSH.md", ".config/AGENTS.md"),
    dedupes=True,
    # The copy whose directory sorts last wins (see above): in a project `.cursor` over
    # `.crush` over `.claude` over `.agents`.
    skill_trees=(".cursor/skills/", ".crush/skills/", ".claude/skills/", ".agents/skills/"),
    # The same sort among the user trees, relative to $HOME (XDG_CONFIG_HOME at
    # `~/.config`).
    user_skill_trees=(
        ".config/crush/skills/",
        ".config/agents/skills/",
        ".claude/skills/",
        ".agents/skills/",
    ),
    reads=(
        "AGENTS.md",
        "CRUSH.md",
        "CRUSH.local.md",
        "CLAUDE.md",
        "CLAUDE.local.md",
        "GEMINI.md",
        ".cursorrules",
        ".github/copilot-instructions.md",
        ".cursor/rules/",
        ".agents/skills/",
        ".crush/skills/",
        ".claude/skills/",
        ".cursor/skills/",
    ),
)
