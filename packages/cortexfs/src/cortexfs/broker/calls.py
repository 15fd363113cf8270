"""Which object a sandboxed call names and whether it may run: decided on the broker's
own view of the mount (its root, the agent's controls, the uid's CTX_PATH), never on
anything the caller claims."""

from __future__ import annotations

import os
from dataclasses import dataclass

from cortexfs.ctx_env import CtxEnv, ctx_env
from cortexfs.errors import Denied
from cortexfs.launch.mounts import CTX
from cortexfs.launch.spec import AgentRef
from cortexfs.objects import ObjectHeader
from cortexfs.resolve import load_driver, load_header, locate
from cortexfs.runner import authorize_call, trusted_tree


@dataclass(frozen=True)
class Resolved:
    host_path: str  # where the broker reads it
    shown: str  # the path the sandbox knows it by
    header: ObjectHeader


def trusted_env(ctx_host: str, ref: AgentRef, uid: int) -> CtxEnv:
    """CTX_* as the launcher defines them for this agent; .tshrc may reorder CTX_PATH
    (inside the mount only: `trusted_tree` refuses anything else)."""
    return ctx_env({"CTX_ROOT": ctx_host, "CTX_AGENT": ctx_host + ref.abi_path}, uid)


def resolve(env: CtxEnv, target: str) -> Resolved:
    if "/" in target:
        parts = [p for p in target.split("/") if p]
        if not target.startswith(CTX + "/") or ".." in parts or "." in parts:
            raise Denied(f"{target}: calls name objects under {CTX}/")
        host_path = env.root + "/" + "/".join(parts[1:])
    else:
        host_path = locate(env, target)
    trusted_tree(env, host_path)
    shown = CTX + host_path[len(env.root) :]
    return Resolved(host_path, shown, load_header(host_path))


def authorise(env: CtxEnv, resolved: Resolved) -> dict[str, str]:
    """The driver to run once every check passed (Denied/Unavailable otherwise)."""
    authorize_call(env, resolved.host_path, resolved.header)
    return load_driver(f"{resolved.host_path}.d")


def driver_path(resolved: Resolved) -> str:
    return os.path.join(f"{resolved.shown}.d", "driver")
