"""Agent labels (`user:role:type:level`) and who may use a type. Pure.

The type is the policy subject: a tool's policy that allows `coder_t` grants every
agent labelled `coder_t`. So a type belongs to the uids whose objects already use it
(an agent's label, a subject in an object's policy; system objects are root's), and a
type `u<uid>_...` is reserved for that uid, which is where a user's new agents start.
Root may use any type; anyone else only types no other uid uses.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

_FIELD = r"[A-Za-z0-9_.-]+"
_LABEL = re.compile(rf"({_FIELD}):({_FIELD}):({_FIELD}):({_FIELD})")
_RESERVED = re.compile(r"u(0|[1-9][0-9]*)_")
ROOT_DEFAULT_TYPE = "agent_t"


def parse_label(label: str) -> str:
    """The type of a well-formed label; ValueError otherwise."""
    match = _LABEL.fullmatch(label)
    if match is None:
        raise ValueError(f"label {label!r} is not user:role:type:level ([A-Za-z0-9_.-] fields)")
    return match[3]


def default_label(owner: int) -> str:
    """A new agent's label: a type of the owner's own, so it shares no grants."""
    kind = ROOT_DEFAULT_TYPE if owner == 0 else f"u{owner}_agent_t"
    return f"user_u:agent_r:{kind}:s0"


def type_problem(kind: str, writer: int, users: Mapping[str, frozenset[int]]) -> str | None:
    """Why uid `writer` may not label an agent with type `kind`, or None."""
    if writer == 0:
        return None
    reserved = _RESERVED.match(kind)
    if reserved and int(reserved[1]) != writer:
        return f"type {kind} is reserved for uid {reserved[1]}"
    others = sorted(users.get(kind, frozenset()) - {writer})
    if others:
        return f"type {kind} belongs to uid {others[0]} (its objects use it)"
    return None
