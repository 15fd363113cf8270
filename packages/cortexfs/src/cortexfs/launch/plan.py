"""One launch, derived from the agent spec, the request and the host facts. Pure."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from cortexfs.errors import BadInput, Unavailable
from cortexfs.launch.chain import HostTools, Launch, SystemView, build_chain, sandbox_env
from cortexfs.launch.identity import Identity, Operator, derive_identity
from cortexfs.launch.limits import Limits
from cortexfs.launch.mounts import PathFacts, plan_mounts
from cortexfs.launch.network import plan_network
from cortexfs.launch.spec import AgentSpec


@dataclass(frozen=True)
class HostFacts:
    tools: HostTools
    view: SystemView
    tun_usable: bool
    cgroup: bool
    runtime_roots: tuple[str, ...]
    user_name: Callable[[int], str]
    paths: PathFacts
    unreachable: Callable[[str, Identity], str | None]  # why `path` is not reachable


@dataclass(frozen=True)
class LaunchRequest:
    """What `ctx agent start` asked for; fixed for the life of the agent process."""

    command: tuple[str, ...] = ()  # empty: /ctx/bin/tsh
    pty: bool = False
    workspace: str | None = None  # host directory bound at /workspace
    limits: Limits = field(default_factory=Limits)


def plan_launch(
    spec: AgentSpec,
    request: LaunchRequest,
    operator: Operator,
    operator_env: Mapping[str, str],
    ctx_host: str,
    broker_host: str,
    host: HostFacts,
    cwd: str | None = None,
) -> Launch:
    if spec.root:
        raise BadInput(f"{spec.ref.controls}/root: a separate root is not supported; clear it")
    identity = derive_identity(spec, operator)
    for root in host.runtime_roots:
        if host.paths.exposes_ctx(root):
            raise Unavailable(
                f"the CortexFS runtime {root} is, holds or lies in CortexFS storage or a "
                "CortexFS mount, so it cannot be shown to the sandbox; install cortexfs elsewhere"
            )
        problem = host.unreachable(root, identity)
        if problem:
            raise Unavailable(
                f"the CortexFS runtime {root} is not reachable by uid {identity.uid}: {problem}; "
                "install cortexfs where the agent's uid can read it"
            )
    # Explicit hosted commands get /ctx read-write (a verified CortexFS mount); the
    # legacy tsh launch keeps it read-only.
    mounts = plan_mounts(
        spec, ctx_host, bool(request.command), host.runtime_roots, request.workspace,
        broker_host, host.paths, cwd,
    )  # fmt: skip
    network = plan_network(spec, host.tools.pasta, host.tun_usable, operator.is_root)
    env = sandbox_env(spec, identity, operator_env, host.user_name(identity.uid))
    return build_chain(
        spec, identity, operator.is_root, host.tools, host.view, network, mounts,
        request.limits.check(), host.cgroup, env, request.command, request.pty,
    )  # fmt: skip
