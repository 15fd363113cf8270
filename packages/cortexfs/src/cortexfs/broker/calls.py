"""Which object a sandboxed call names and whether it may run: decided on the broker's
own view of the mount (its root, the agent's controls, the uid's CTX_PATH), never on
anything the caller claims."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from cortexfs.ctx_env import CtxEnv, ctx_env
from cortexfs.errors import Denied
from cortexfs.launch.mounts import CTX
from cortexfs.launch.spec import AgentRef
from cortexfs.objects import ObjectHeader
from cortexfs.resolve import load_driver, load_header, load_schema, locate
from cortexfs.runner import authorize_call, trusted_tree


@dataclass(frozen=True)
class Resolved:
    host_path: str  # where the broker reads it
    shown: str  # the path the sandbox knows it by
    header: ObjectHeader


def trusted_env(ctx_host: str, ref: AgentRef, uid: int) -> CtxEnv:
    """CTX_* exactly as the launcher sets them inside the sandbox (where tsh and `which`
    see the same CTX_PATH): the system tools, then the uid's. `.tshrc` is not read: the
    agent's uid may write it, and a path it chose could name a file it made."""
    home = f"{ctx_host}/home/{uid}"
    environ = {"CTX_ROOT": ctx_host, "CTX_HOME": home, "CTX_PATH": f"{ctx_host}/tool:{home}/tool",
               "CTX_AGENT": ctx_host + ref.abi_path}  # fmt: skip
    return ctx_env(environ, uid)


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


def shown(ctx_host: str, message: str) -> str:
    """A refusal as the sandbox would say it: paths under /ctx, not where the broker
    has the mount (which the sandbox has no business knowing)."""
    return message.replace(ctx_host.rstrip("/") + "/", CTX + "/")


def driver_path(resolved: Resolved) -> str:
    return os.path.join(f"{resolved.shown}.d", "driver")


def call_schema(resolved: Resolved, driver: dict[str, str]) -> Any:
    """The input schema an MCP call is checked against (read here, as root, on the mount)."""
    return load_schema(f"{resolved.host_path}.d") if driver.get("kind") == "mcp" else None
