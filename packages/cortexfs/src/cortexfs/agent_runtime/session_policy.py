"""Which session a turn may use: policy v0's `session` class, on top of ownership. Pure.

The owner picks the session of a `send`; the agent's policy decides whether the agent may
act on it (default deny, exact names, the agent's label type as subject):

    send, private or shared scope   session:<s> write   (its records are written)
    ... to a session that has records   + session:<s> resume   (the conversation goes on)
    ... in shared scope            + shared:<space> write   (the records live in the space)
    send, temp scope               nothing: no session state is kept
    resume (replay a turn's events)    session:<s> read

A refusal is `Denied` (EACCES, exit 13) naming the missing rule.
"""

from __future__ import annotations

from cortexfs.errors import Denied
from cortexfs.launch.spec import AgentSpec


def _require(spec: AgentSpec, object_class: str, name: str, permission: str) -> None:
    if not spec.allows(object_class, name, permission):
        rule = f"{spec.subject} {object_class}:{name} {permission}"
        raise Denied(f"agent {spec.ref.name} policy does not allow {rule}")


def check_send(spec: AgentSpec, session: str, scope: str, space: str | None, exists: bool) -> None:
    if scope == "temp":
        return
    _require(spec, "session", session, "write")
    if exists:
        _require(spec, "session", session, "resume")
    if scope == "shared":
        assert space is not None
        _require(spec, "shared", space, "write")


def check_read(spec: AgentSpec, session: str) -> None:
    _require(spec, "session", session, "read")
