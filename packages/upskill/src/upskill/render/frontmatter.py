"""Per-client frontmatter mapping (format spec §3, §4, §7, Appendix B).

Returns an insertion-ordered dict plus warnings; SSOT-only fields (schema,
audience, requires, ignore, non-matching passthrough; a rule's or agent's license
and metadata) never reach it. The client-specific part is each client's
`rule_fields`, `agent_fields` and `skill_fields` (`upskill.clients`); this module
translates the item for them. A skill's fields for the clients keep their authored
order and, where the item kept it, their authored text (`yaml_emit.Verbatim`).
"""

from __future__ import annotations

from typing import Any

from upskill.clients import get, skill_fields
from upskill.clients.base import AgentView
from upskill.format.model import Agent, Item, Rule, Skill
from upskill.format.vocabulary import CAPABILITIES
from upskill.render.tables import PROJECT, Site, resolve_model
from upskill.render.yaml_emit import Verbatim


def _mapped_tools(agent: Agent, target: str) -> tuple[list[str], list[str]]:
    """Client tool names (deduplicated, in order) and the warnings for dropped ones."""
    table = get(target).tools
    requested = agent.tools if agent.tools is not None else CAPABILITIES
    names: list[str] = []
    dropped: list[str] = []
    for capability in requested:
        mapped = table.get(capability)
        if mapped is None:
            dropped.append(repr(capability))
        elif mapped not in names:
            names.append(mapped)
    if not dropped or agent.tools is None:
        return names, []
    what = f"tool {dropped[0]} has" if len(dropped) == 1 else f"tools {', '.join(dropped)} have"
    return names, [
        f"{agent.entrypoint}: agent {agent.name!r}: {what} no {target} equivalent and "
        f"{'is' if len(dropped) == 1 else 'are'} dropped"
    ]


def agent_view(agent: Agent, target: str) -> tuple[AgentView, list[str]]:
    tools, warnings = _mapped_tools(agent, target)
    model = None
    if agent.model is not None:
        model = resolve_model(agent.model, target)
        if model is None:
            warnings.append(
                f"{agent.entrypoint}: agent {agent.name!r}: model {agent.model!r} has no "
                f"{target} equivalent and is dropped"
            )
    view = AgentView(
        tools=tuple(tools),
        restricted=agent.tools is not None,
        every_tool=tuple(dict.fromkeys(get(target).tools.values())),
        model=model,
        mode=agent.mode,
        preload_skills=tuple(agent.preload_skills),
    )
    return view, warnings


def build_frontmatter(
    item: Item, target: str, name: str, site: Site = PROJECT
) -> tuple[dict[str, Any], list[str]]:
    client = get(target)
    out: dict[str, Any] = {"name": name, "description": item.description}
    warnings: list[str] = []
    if isinstance(item, Rule):
        out |= client.rule_fields(tuple(item.scope_paths), site)
    elif isinstance(item, Skill):
        defined = skill_fields(target, home=site.home)
        for key, value in item.client_fields.items():
            if key in defined and key not in out:
                text = item.field_text.get(key)
                out[key] = Verbatim(text) if text is not None else value
    else:
        view, warnings = agent_view(item, target)
        out |= client.agent_fields(view)
    for key, value in item.passthrough.get(target, {}).items():
        out[key] = value  # a clashing key is replaced in place, new keys appended
    return out, warnings
