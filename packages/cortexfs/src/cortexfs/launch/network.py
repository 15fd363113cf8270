"""Network for the sandbox: none (`--unshare-net`, loopback only) unless the agent policy
grants `network:default connect`, and then pasta's user-mode network. Pure.

pasta's argv is the reference one (notes §1): outbound only, no inbound ports, no ICMP,
DNS (port 53) forwarded to the host. As root it needs `--runas 0` (otherwise it drops to
nobody), and `--netns-only` so the command keeps the host's user namespace: pasta before
2023-08 cannot map root into a user namespace it creates, and bubblewrap makes its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from cortexfs.launch.spec import AgentSpec

PASTA_ARGS = (
    "-f", "-q", "--config-net", "--no-map-gw", "--no-icmp",
    "-t", "none", "-u", "none", "-T", "53", "-U", "53",
)  # fmt: skip


@dataclass(frozen=True)
class NetworkPlan:
    granted: bool
    prefix: tuple[str, ...]  # the pasta command the chain starts with, or ()
    reason: str

    @property
    def isolated(self) -> bool:
        return not self.prefix


def plan_network(
    spec: AgentSpec, pasta: str | None, tun_usable: bool, operator_is_root: bool
) -> NetworkPlan:
    if not spec.allows("network", "default", "connect"):
        return NetworkPlan(False, (), "policy grants no network:default connect")
    # The spec keeps --unshare-net when pasta or /dev/net/tun is missing: a missing
    # tool never widens what the agent reaches.
    if pasta is None:
        return NetworkPlan(True, (), "granted, but pasta is not installed")
    if not operator_is_root:
        return NetworkPlan(True, (), "granted, but pasta needs a root operator here")
    if not tun_usable:
        return NetworkPlan(True, (), "granted, but /dev/net/tun is not usable")
    prefix = (pasta, "--runas", "0", "--netns-only", *PASTA_ARGS, "--")
    return NetworkPlan(True, prefix, "pasta")
