"""Where a running agent's runtime lives: sockets and state under /run, mirroring the ABI
path (`/run/cortexfs/agent/coder.sock` is what `/ctx/agent/coder.sock` links to)."""

from __future__ import annotations

import os
from dataclasses import dataclass

SYSTEM_RUN = "/run/cortexfs"


def run_base(operator_uid: int) -> str:
    """Root's agents under /run/cortexfs; a user's under its /run/user/<uid>/cortexfs."""
    return SYSTEM_RUN if operator_uid == 0 else f"/run/user/{operator_uid}/cortexfs"


@dataclass(frozen=True)
class RuntimePaths:
    base: str
    abi_path: str  # "/agent/coder"

    @property
    def socket(self) -> str:
        return f"{self.base}{self.abi_path}.sock"

    @property
    def rundir(self) -> str:
        return f"{self.base}{self.abi_path}.run"

    @property
    def broker(self) -> str:
        return os.path.join(self.rundir, "broker.sock")

    @property
    def state(self) -> str:
        return os.path.join(self.rundir, "state.json")

    @property
    def log(self) -> str:
        """Beside the run directory: it outlives the agent, for the next look."""
        return f"{self.base}{self.abi_path}.log"

    @property
    def lock(self) -> str:
        """Held (flock) by the supervisor for its whole life: one instance per agent."""
        return f"{self.base}{self.abi_path}.lock"

    def stderr(self, turn: str) -> str:
        return os.path.join(self.rundir, f"turn-{turn}.stderr")
