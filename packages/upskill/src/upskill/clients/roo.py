"""Roo Code (end of life in 2026-05; Zoo Code reads the same `.roo/` tree): rules are
plain Markdown with no frontmatter; custom modes in `.roomodes` are not subagent files."""

from __future__ import annotations

from upskill.clients.base import (
    RULE,
    SKILL,
    Client,
    ConfigFile,
    Detect,
    EntryStyle,
    Layout,
    McpRoute,
    Placement,
)

CLIENT = Client(
    id="roo",
    name="Roo Code",
    family="roo",
    kinds={
        RULE: Placement(Layout(".roo/rules/{n}.md", flat=True)),
        SKILL: Placement(Layout(".roo/skills/{n}/SKILL.md", flat=False)),
    },
    detect=Detect(paths=(".roo", ".roomodes", ".roorules"), home_paths=(".roo",)),
    docs=(
        "https://docs.roocode.com/features/custom-instructions",
        "https://docs.roocode.com/features/skills",
        "https://docs.roocode.com/features/mcp/using-mcp-in-roo",
    ),
    bare_rules=True,
    passthrough=True,
    # The global file lives in VS Code's extension storage: project scope only.
    mcp=McpRoute(
        EntryStyle.STREAMABLE,
        "mcpServers",
        project=ConfigFile(".roo/mcp.json"),
        user=None,
        env_ref="${env:NAME}",
    ),
    reads=("AGENTS.md",),
)
