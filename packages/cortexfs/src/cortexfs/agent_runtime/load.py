"""Find an agent object on the mount and read its controls (nofollow, bounded reads)."""

from __future__ import annotations

import os

from cortexfs.ctx_env import CtxEnv
from cortexfs.errors import BadInput, Unavailable
from cortexfs.launch.spec import READ, AgentRef, AgentSpec, parse_spec
from cortexfs.names import name_problem
from cortexfs.resolve import read_text


def locate_agent(env: CtxEnv, name: str) -> AgentRef:
    """`ctx agent` runs the agents in /ctx/agent: their per-user state directory
    home/<uid>/agent/<a>/ cannot sit beside a home agent of the same name."""
    problem = name_problem(name)
    if problem:
        raise BadInput(f"{name!r}: not an agent name: {problem}")
    ref = AgentRef(name, f"/agent/{name}")
    host = env.root + ref.abi_path
    if not (os.path.isfile(host) and os.path.isdir(host + ".d")):
        raise Unavailable(f"{host}: no such agent (create it with `ctx agent new {name}`)")
    return ref


def load_spec(ctx_host: str, ref: AgentRef) -> AgentSpec:
    controls = {}
    for name in READ:
        path = f"{ctx_host}{ref.controls}/{name}"
        try:
            controls[name] = read_text(path)
        except Unavailable:
            continue
    return parse_spec(ref, controls)


def ctxterm_runner(ctx_host: str) -> str:
    """The object runner the mount's objects name (bin/ctxterm's shebang): what must be
    visible inside the sandbox for ctxterm, tsh and calls to run there."""
    from cortexfs.resolve import load_header

    return load_header(f"{ctx_host}/bin/ctxterm").runner
