"""Read the facts a call is decided on from the mounted tree (nofollow opens, bounded reads)."""

from __future__ import annotations

import os
from typing import Any

from cortexfs.authorize import AgentFacts, ToolFacts
from cortexfs.ctx_env import CtxEnv
from cortexfs.errors import Denied, Internal, Unavailable
from cortexfs.json_bounds import loads_bounded
from cortexfs.names import name_problem
from cortexfs.objects import ObjectHeader, parse_object
from cortexfs.perm import parse_perm
from cortexfs.policy import Policy, PolicyError, parse_policy

_LIMIT = 1 << 20


def read_text(path: str) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError as exc:
        raise Unavailable(f"{path}: does not exist") from exc
    except OSError as exc:
        raise Denied(f"{path}: cannot open: {os.strerror(exc.errno or 0)}") from exc
    try:
        data = os.read(fd, _LIMIT)
    finally:
        os.close(fd)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Internal(f"{path}: not UTF-8") from exc


def read_lines(path: str) -> tuple[str, ...]:
    return tuple(line for line in read_text(path).split("\n") if line)


def read_value(path: str) -> str:
    return read_text(path).split("\n", 1)[0]


def read_policy(path: str) -> Policy:
    try:
        return parse_policy(read_text(path))
    except PolicyError as exc:
        raise Internal(f"{path}: {exc}") from exc


def which(env: CtxEnv, name: str) -> str | None:
    """CTX_PATH left to right; the first executable hit wins."""
    for directory in env.path:
        candidate = os.path.join(directory, name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def locate(env: CtxEnv, target: str) -> str:
    """A bare name is looked up on CTX_PATH; a path must be the CTX_PATH hit for its name."""
    if "/" not in target:
        problem = name_problem(target)
        if problem:
            raise Unavailable(f"{target}: not an object name: {problem}")
        found = which(env, target)
        if found is None:
            raise Unavailable(f"{target}: not found on CTX_PATH")
        return found
    return os.path.abspath(target)


def on_ctx_path(env: CtxEnv, object_path: str, name: str) -> None:
    hit = which(env, name)
    if hit is None or os.path.realpath(hit) != os.path.realpath(object_path):
        where = f"shadowed by {hit}" if hit else "not on CTX_PATH"
        raise Denied(f"{object_path}: {where}")


def load_header(object_path: str) -> ObjectHeader:
    try:
        return parse_object(read_text(object_path).encode())
    except ValueError as exc:
        raise Internal(f"{object_path}: not a CortexFS object: {exc}") from exc


def agent_dir(env: CtxEnv) -> str:
    if not env.agent:
        raise Denied("no calling agent (CTX_AGENT unset); policy is default deny")
    if "/" in env.agent:
        candidate = os.path.abspath(env.agent)
        if not candidate.startswith(env.root.rstrip("/") + "/"):
            raise Denied(f"{env.agent}: agent outside {env.root}")
        return candidate + ".d"
    if name_problem(env.agent):
        raise Denied(f"CTX_AGENT={env.agent}: not an agent name")
    for base in (f"{env.root}/agent", f"{env.home}/agent"):
        if os.path.isdir(f"{base}/{env.agent}.d"):
            return f"{base}/{env.agent}.d"
    raise Denied(f"agent {env.agent} does not exist")


def load_agent(env: CtxEnv) -> AgentFacts:
    controls = agent_dir(env)
    name = os.path.basename(controls)[:-2]
    uid_text = read_value(f"{controls}/uid")
    try:
        perm = parse_perm(read_value(f"{controls}/perm"))
    except ValueError as exc:
        raise Internal(f"{controls}/perm: {exc}") from exc
    if not uid_text.isdigit():
        raise Internal(f"{controls}/uid: not a uid")
    policy = read_policy(f"{controls}/policy")
    tools = read_lines(f"{controls}/tools")
    return AgentFacts(name, int(uid_text), read_value(f"{controls}/label"), perm, tools, policy)


def load_tool(controls: str, name: str) -> ToolFacts:
    caps = read_lines(f"{controls}/cap") if os.path.exists(f"{controls}/cap") else ()
    return ToolFacts(name, caps, read_policy(f"{controls}/policy"))


def load_driver(controls: str) -> dict[str, str]:
    path = f"{controls}/driver"
    if not os.path.exists(path):
        return {}
    pairs = {}
    for line in read_lines(path):
        key, _, value = line.partition("=")
        pairs[key] = value
    return pairs


def load_schema(controls: str) -> Any:
    """The tool's projected input schema; None when there is none to check against."""
    path = f"{controls}/schema"
    if not os.path.exists(path):
        return None
    text = read_text(path)
    if not text.strip():
        return None
    try:
        return loads_bounded(text)
    except ValueError as exc:
        raise Internal(f"{path}: not JSON") from exc
