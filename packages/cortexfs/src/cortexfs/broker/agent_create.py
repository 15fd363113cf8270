"""`/ctx/tool/agent.create` (driver `kind=agent.create`): the broker makes a child agent.

It runs here, not in a process as the agent: the broker knows which agent is calling
(SO_PEERCRED and the sandbox's process tree, never the caller's word) and writes as the
parent's owner, who owns the child. The call was authorised like any tool (declared,
perm, `tool:agent.create execute` in both policies); `children.plan_child` then checks
`agent:<child> create` and that the child is a subset of the parent.
"""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING

from cortexfs.agent_runtime import fs_ops
from cortexfs.agent_runtime.load import load_spec
from cortexfs.children import plan_child
from cortexfs.drivers import parse_arguments
from cortexfs.errors import CtxError, Exists
from cortexfs.events import EventWriter
from cortexfs.launch.mounts import CTX

if TYPE_CHECKING:
    from cortexfs.broker.server import BrokerAgent

KIND = "agent.create"


def _request(args: list[str], stdin: int | None) -> dict[str, object]:
    if args or stdin is None:
        return parse_arguments(args, None)
    with os.fdopen(os.dup(stdin), "rb") as handle:
        return parse_arguments(args, handle)


def create(args: list[str], stdin: int | None, agent: BrokerAgent) -> str:
    """Make the child; its ABI path, or CtxError with nothing left behind."""
    parent = load_spec(agent.ctx_host, agent.ref)
    child = plan_child(parent, _request(args, stdin))
    path = f"{agent.ctx_host}/agent/{child.name}"
    if os.path.lexists(path) or os.path.lexists(f"{path}.d"):
        raise Exists(f"{CTX}/agent/{child.name} exists")
    gid = parent.gid if parent.owner == parent.uid else parent.owner
    ops = [fs_ops.mkdir(f"{path}.d")]
    ops += [fs_ops.write(f"{path}.d/{name}", text) for name, text in child.controls.items()]
    try:
        fs_ops.run_as(parent.owner, gid, ops)
    except CtxError:
        with contextlib.suppress(CtxError):
            fs_ops.run_as(parent.owner, gid, [fs_ops.unlink(path)])
        raise
    return f"{CTX}/agent/{child.name}"


def run_create(writer: EventWriter, args: list[str], stdin: int | None, agent: BrokerAgent) -> int:
    try:
        made = create(args, stdin, agent)
    except CtxError as exc:
        writer.error(
            exc.errno_name, exc.message.replace(agent.ctx_host.rstrip("/") + "/", f"{CTX}/")
        )
        writer.done(exc.exit_code)
        return exc.exit_code
    writer.message(made, agent=made)
    writer.done(0)
    return 0
