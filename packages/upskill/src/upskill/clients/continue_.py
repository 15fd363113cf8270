"""Continue's `cn` CLI (read paths verified with cn 1.5.47, `client-read-paths-more.md`):
rules in `.continue/rules/` (a rule with `globs:` is never sent by the CLI; the IDE
extension applies it to matching files), skills in `.continue/skills`. Subagents are
config models, not files, and the CLI reads MCP servers only from the YAML config it
runs with, so neither kind has a place here. Continue lists a skill found in both
`.continue/skills` and `.claude/skills` twice."""

from __future__ import annotations

from typing import Any

from upskill.clients.base import RULE, SKILL, Client, Detect, Layout, Placement, Site


def _rule_fields(paths: tuple[str, ...], site: Site) -> dict[str, Any]:
    return {"globs": list(paths)} if paths else {}


CLIENT = Client(
    id="continue",
    name="Continue",
    family="continue",
    kinds={
        RULE: Placement(Layout(".continue/rules/{n}.md", flat=True)),
        SKILL: Placement(Layout(".continue/skills/{n}/SKILL.md", flat=False)),
    },
    detect=Detect(paths=(".continue",), home_paths=(".continue",), executables=("cn",)),
    docs=(
        "client-read-paths-more.md (cn 1.5.47, verified)",
        "https://docs.continue.dev/customize/deep-dives/rules",
    ),
    rule_fields=_rule_fields,
    passthrough=True,
    # client-read-paths-more.md (cn 1.5.47, verified): a name in both trees is listed twice.
    skill_trees=(".continue/skills/", ".claude/skills/"),
    # At user level (cn 1.5.47's first model request, client_turns.py), one copy in each
    # of `~/.continue/skills`, `~/.agents/skills`, `~/.claude/skills`,
    # `~/.config/agents/skills` and `~/.config/continue/skills`: the `~/.continue/skills`
    # copy only, and with it removed none.
    user_skill_trees=(".continue/skills/",),
    reads=("AGENTS.md", ".claude/skills/"),
)
