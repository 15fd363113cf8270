"""The warm host as the agent supervisor starts it (broker/warm_host.py):
`python -c '...main()' GO_FD READY_FD`, already running with the agent's identity.

It waits for the supervisor's go-ahead (which comes once it has moved this process into
the warm cgroup, so nothing the host starts is ever in an agent's cgroup), makes the
uid's private directory, then is the host of warm/host.py. READY_FD gets the host's
directory on one line, then `ready` or `busy` (another host holds the directory).
"""

from __future__ import annotations

import os
import sys

from cortexfs.warm import host
from cortexfs.warm.paths import host_dir, private_dir, uid_dir


def main() -> int:
    go, ready = int(sys.argv[1]), int(sys.argv[2])
    with os.fdopen(go, "rb") as handle:
        if not handle.read(2):
            os.close(ready)
            return 1  # the supervisor went away before placing this process
    uid = os.getuid()
    directory = host_dir(uid)
    try:
        private_dir(uid_dir(uid), uid)
    except OSError:
        os.close(ready)
        return 1
    os.write(ready, f"{directory}\n".encode())
    return host.main([directory, str(ready)])
