"""Per-client frontmatter mapping (format spec §3, §4, §7, Appendix B).

Returns an insertion-ordered dict plus warnings; SSOT-only fields (schema,
license, audience, metadata, requires, ignore, non-matching passthrough) never
reach it.
"""

from __future__ import annotations

from typing import Any

from upskill.clients import CLAUDE, COPILOT, OPENCODE
from upskill.format.model import Agent, Item, Rule, Skill
from upskill.format.vocabulary import CAPABILITIES
from upskill.render.tables import (
    COPILOT_EXCLUDE,
    DEFAULT_OPENCODE_MODE,
    PROJECT,
    TOOL_NAMES,
    Site,
    resolve_model,
)


def _mapped_tools(agent: Agent, target: str) -> tuple[list[str], list[str]]:
    """Client tool names (deduplicated, in order) and the warnings for dropped ones."""
    table = TOOL_NAMES[target]
    requested = agent.tools if agent.tools is not None else CAPABILITIES
    names: list[str] = []
    warnings: list[str] = []
    for capability in requested:
        mapped = table.get(capability)
        if mapped is None:
            if agent.tools is not None:
                warnings.append(
                    f"{agent.entrypoint}: agent {agent.name!r}: tool {capability!r} has no "
                    f"{target} equivalent and is dropped"
                )
            continue
        if mapped not in names:
            names.append(mapped)
    return names, warnings


def _agent_fields(agent: Agent, target: str, out: dict[str, Any]) -> list[str]:
    tools, warnings = _mapped_tools(agent, target)
    if target == OPENCODE:
        out["mode"] = agent.mode or DEFAULT_OPENCODE_MODE
    if agent.model is not None:
        out["model"] = resolve_model(agent.model, target)
    if target == OPENCODE:
        if agent.tools is not None:
            # opencode allows every tool by default (`opencode debug agent` shows
            # ('*', '*', 'allow')): what `tools:` does not grant must be denied explicitly.
            every = dict.fromkeys(TOOL_NAMES[OPENCODE].values(), "deny")
            out["permission"] = every | dict.fromkeys(tools, "allow")
        elif tools:
            out["permission"] = dict.fromkeys(tools, "allow")
    elif tools or agent.tools is not None:
        out["tools"] = tools
    if target == CLAUDE and agent.preload_skills:
        out["skills"] = list(agent.preload_skills)
    return warnings


def build_frontmatter(
    item: Item, target: str, name: str, site: Site = PROJECT
) -> tuple[dict[str, Any], list[str]]:
    out: dict[str, Any] = {"name": name, "description": item.description}
    warnings: list[str] = []
    if isinstance(item, Rule):
        if target == CLAUDE and item.scope_paths:
            out["paths"] = list(item.scope_paths)
        if target == CLAUDE and COPILOT in site.alongside and not site.home:
            out[COPILOT_EXCLUDE[0]] = COPILOT_EXCLUDE[1]
        elif target == COPILOT:
            out["applyTo"] = ", ".join(item.scope_paths) if item.scope_paths else "**"
    elif isinstance(item, Skill):
        for key in sorted(item.extras):
            out[key] = item.extras[key]
    else:
        warnings = _agent_fields(item, target, out)
    for key, value in item.passthrough.get(target, {}).items():
        out[key] = value  # a clashing key is replaced in place, new keys appended
    return out, warnings
