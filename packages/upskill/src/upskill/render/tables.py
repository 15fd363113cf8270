"""Per-client data: output paths, tool vocabulary, model aliases.

One table per concern so that install, remove and doctor (via `output_path`)
and the renderer never disagree, and so that a client renaming a tool or a
model is a one-line data change.
"""

from __future__ import annotations

from dataclasses import dataclass

from upskill.clients import CLAUDE, COPILOT, OPENCODE
from upskill.format.model import Kind


@dataclass(frozen=True)
class Layout:
    """Where one kind lands for one client. `flat` outputs are a single file whose
    resources go to a sibling `<name>/` directory; the others are a directory."""

    template: str
    flat: bool

    def entrypoint(self, name: str) -> str:
        return self.template.format(n=name)

    def resource_dir(self, name: str) -> str:
        parent = self.entrypoint(name).rsplit("/", 1)[0]
        return parent if not self.flat else f"{parent}/{name}"


LAYOUTS: dict[tuple[Kind, str], Layout] = {
    (Kind.RULE, CLAUDE): Layout(".claude/rules/{n}.md", flat=True),
    (Kind.RULE, COPILOT): Layout(".github/instructions/{n}.instructions.md", flat=True),
    (Kind.RULE, OPENCODE): Layout(".agents/rules/{n}/RULE.md", flat=False),
    (Kind.SKILL, CLAUDE): Layout(".claude/skills/{n}/SKILL.md", flat=False),
    (Kind.SKILL, COPILOT): Layout(".github/skills/{n}/SKILL.md", flat=False),
    (Kind.SKILL, OPENCODE): Layout(".agents/skills/{n}/SKILL.md", flat=False),
    (Kind.AGENT, CLAUDE): Layout(".claude/agents/{n}.md", flat=True),
    (Kind.AGENT, COPILOT): Layout(".github/agents/{n}.agent.md", flat=True),
    (Kind.AGENT, OPENCODE): Layout(".opencode/agents/{n}.md", flat=True),
}

# §4 capability -> client tool name; a capability missing for a client is dropped
# (with a warning). opencode consumes a `permission:` map instead of a list.
TOOL_NAMES: dict[str, dict[str, str]] = {
    CLAUDE: {
        "read": "Read",
        "write": "Write",
        "edit": "Edit",
        "bash": "Bash",
        "grep": "Grep",
        "glob": "Glob",
        "web-fetch": "WebFetch",
        "web-search": "WebSearch",
    },
    # GitHub's documented custom-agent tool aliases (custom-agents-configuration,
    # "Tool aliases"): the client's own documentation wins over upstream
    # upskill's `shell`/`fetch`/`web_search`, which dropped read, edit and search.
    COPILOT: {
        "read": "read",
        "write": "edit",
        "edit": "edit",
        "bash": "execute",
        "grep": "search",
        "glob": "search",
        "web-fetch": "web",
        "web-search": "web",
    },
    OPENCODE: {
        "read": "read",
        "write": "edit",  # opencode's permission model rolls write into edit
        "edit": "edit",
        "bash": "bash",
        "grep": "grep",
        "glob": "glob",
        "web-fetch": "webfetch",
        "web-search": "websearch",
    },
}

# §3.4 guaranteed aliases -> per-client model identifier. Claude Code resolves
# its own aliases to the latest model of the family; Copilot wants its own model
# ID (dotted, as `copilot --model` lists them); opencode wants `provider/ID`.
# Any other value passes through verbatim.
MODEL_ALIASES: dict[str, dict[str, str]] = {
    "sonnet": {
        CLAUDE: "sonnet",
        COPILOT: "claude-sonnet-4.6",
        OPENCODE: "anthropic/claude-sonnet-4-6",
    },
    "opus": {
        CLAUDE: "opus",
        COPILOT: "claude-opus-4.6",
        OPENCODE: "anthropic/claude-opus-4-6",
    },
    "haiku": {
        CLAUDE: "haiku",
        COPILOT: "claude-haiku-4.5",
        OPENCODE: "anthropic/claude-haiku-4-5",
    },
}

DEFAULT_OPENCODE_MODE = "subagent"
SKILLS_SECTION_LEAD = (
    "This agent relies on the following skills, installed alongside it. Use them when relevant:"
)
GENERATED_FILE_MODE = 0o644


# Global scope (paths relative to $HOME): where a client reads user-level content when it
# differs from the project layout. Copilot CLI reads ~/.copilot/{instructions,skills,agents}
# and never ~/.github (verified with copilot 1.0.102; docs/upskill/clients.md).
HOME_LAYOUTS: dict[tuple[Kind, str], Layout] = {
    (Kind.RULE, COPILOT): Layout(".copilot/instructions/{n}.instructions.md", flat=True),
    (Kind.SKILL, COPILOT): Layout(".copilot/skills/{n}/SKILL.md", flat=False),
    (Kind.AGENT, COPILOT): Layout(".copilot/agents/{n}.agent.md", flat=True),
}

# Copilot CLI also loads a project's `.claude/rules/*.md` as instructions (it maps `paths:`
# to `applyTo`), so a rule written for both would reach it twice, Claude's text included.
# It skips an instructions file whose frontmatter excludes its agent: Claude's copy says so
# whenever Copilot gets its own copy. (Skills and agents it also reads from `.claude/` are
# deduplicated by name, its own copy first: nothing to do.)
COPILOT_EXCLUDE = ("excludeAgent", "coding-agent")


@dataclass(frozen=True)
class Site:
    """Where a rendering lands: the user's home (global scope) or a project, and the other
    render targets the item is written for there, since clients read each other's trees."""

    home: bool = False
    alongside: frozenset[str] = frozenset()


PROJECT = Site()


def layout(kind: Kind, target: str, site: Site = PROJECT) -> Layout:
    if site.home and (home := HOME_LAYOUTS.get((kind, target))) is not None:
        return home
    return LAYOUTS[(kind, target)]


def resolve_model(model: str, target: str) -> str:
    aliases = MODEL_ALIASES.get(model)
    return aliases[target] if aliases is not None else model
