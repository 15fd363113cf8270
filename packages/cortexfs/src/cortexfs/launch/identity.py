"""The agent process's credentials, derived from the agent object: never the operator's.

Root may launch any identity the agent names. A non-root operator holds no privilege to
change credentials, so it may only launch its own agents whose identity is exactly its
own (uid, gid and the full supplementary group set); anything else is refused rather
than silently inherited. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass

from cortexfs.errors import Denied
from cortexfs.launch.spec import AgentSpec

UMASK_ISOLATED = 0o077  # iso=1: nothing the agent creates is readable by others
UMASK_SHARED = 0o022


@dataclass(frozen=True)
class Operator:
    """Who asked for the launch (the `ctx agent start` process)."""

    uid: int
    gid: int
    groups: frozenset[int]

    @property
    def is_root(self) -> bool:
        return self.uid == 0


@dataclass(frozen=True)
class Identity:
    uid: int
    gid: int
    groups: tuple[int, ...]
    umask: int

    def setpriv_args(self) -> list[str]:
        """setpriv's credential options (root operators only: they change credentials)."""
        groups = ["--groups", ",".join(map(str, self.groups))] if self.groups else []
        return [
            "--reuid", str(self.uid), "--regid", str(self.gid),
            *(groups or ["--clear-groups"]),
        ]  # fmt: skip


def may_operate(spec: AgentSpec, operator: Operator) -> None:
    """Only the agent's owner (or root) starts, stops and talks to it."""
    if not operator.is_root and operator.uid != spec.owner:
        raise Denied(f"{spec.ref.abi_path}: owned by uid {spec.owner}, not uid {operator.uid}")


def derive_identity(spec: AgentSpec, operator: Operator) -> Identity:
    may_operate(spec, operator)
    groups = tuple(sorted(set(spec.groups)))
    identity = Identity(spec.uid, spec.gid, groups, UMASK_ISOLATED if spec.iso else UMASK_SHARED)
    if operator.is_root:
        return identity
    where = spec.ref.controls
    if spec.uid != operator.uid:
        raise Denied(f"{where}/uid: uid {spec.uid} needs a root operator (you are {operator.uid})")
    if spec.gid != operator.gid:
        raise Denied(f"{where}/gid: gid {spec.gid} needs a root operator (yours is {operator.gid})")
    own = operator.groups - {operator.gid}
    if set(groups) - {operator.gid} != own:
        want = ",".join(map(str, sorted(own))) or "(none)"
        raise Denied(
            f"{where}/groups: a non-root operator cannot change supplementary groups; "
            f"they must be exactly yours: {want}"
        )
    return identity
