"""Whether an agent may call a tool or use a model: every check must agree. Pure.

Order (tool-policy-abi): identity (caller uid is the agent's uid), declared in the agent's
`tools`, the `perm` ceiling, the agent policy, then the tool's own policy.
"""

from __future__ import annotations

from dataclasses import dataclass

from cortexfs.errors import Denied
from cortexfs.perm import Perm
from cortexfs.policy import Policy

# Capability -> perm bit (agent-tool-security: r fs.read/list/stat, w fs.write/replace,
# x shell/bash/tmux/zellij). Running any tool needs x; its caps may add r and w.
CAP_BITS = {
    "fs.read": "r",
    "fs.list": "r",
    "fs.stat": "r",
    "fs.write": "w",
    "fs.replace": "w",
    "shell": "x",
    "bash": "x",
    "tmux": "x",
    "zellij": "x",
}


@dataclass(frozen=True)
class AgentFacts:
    name: str
    uid: int
    label: str
    perm: Perm
    tools: tuple[str, ...]
    policy: Policy


@dataclass(frozen=True)
class ToolFacts:
    name: str
    caps: tuple[str, ...]
    policy: Policy


def subject_of(label: str) -> str:
    """The type field of an SELinux-style label `user:role:type:level`."""
    fields = label.split(":")
    if len(fields) != 4 or not fields[2]:
        raise ValueError(f"label {label!r} is not user:role:type:level")
    return fields[2]


def required_bits(caps: tuple[str, ...]) -> str:
    bits = {"x"} | {CAP_BITS[c] for c in caps if c in CAP_BITS}
    return "".join(b for b in "rwx" if b in bits)


def _identity(caller_uid: int, agent: AgentFacts) -> str:
    if caller_uid != agent.uid:
        raise Denied(f"caller uid {caller_uid} is not agent {agent.name}'s uid {agent.uid}")
    try:
        return subject_of(agent.label)
    except ValueError as exc:
        raise Denied(f"agent {agent.name}: {exc}") from exc


def authorize_tool(caller_uid: int, agent: AgentFacts, tool: ToolFacts) -> None:
    subject = _identity(caller_uid, agent)
    if tool.name not in agent.tools:
        raise Denied(f"tool {tool.name} is not declared in agent {agent.name}'s tools")
    missing = [b for b in required_bits(tool.caps) if not agent.perm.has(b)]
    if missing:
        need = "".join(missing)
        raise Denied(f"agent {agent.name} perm {agent.perm.render()} lacks {need} for {tool.name}")
    if not agent.policy.allows(subject, "tool", tool.name, "execute"):
        raise Denied(f"agent {agent.name} policy does not allow {subject} tool:{tool.name} execute")
    if not tool.policy.allows(subject, "tool", tool.name, "execute"):
        raise Denied(f"tool {tool.name} policy does not allow {subject} tool:{tool.name} execute")


def authorize_model(caller_uid: int, agent: AgentFacts, model: str) -> None:
    subject = _identity(caller_uid, agent)
    if not agent.policy.allows(subject, "model", model, "use"):
        raise Denied(f"agent {agent.name} policy does not allow {subject} model:{model} use")
