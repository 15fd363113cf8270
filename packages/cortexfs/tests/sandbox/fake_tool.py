"""A fake tool, run by the broker outside the sandbox with the agent's identity: prints
who and where it runs (uid, groups, mount and network namespace, rlimits), its args
and stdin."""

import json
import os
import resource
import sys

print(
    json.dumps(
        {
            "uid": os.getuid(),
            "gid": os.getgid(),
            "groups": sorted(os.getgroups()),
            "umask": f"{os.umask(0):04o}",
            "mntns": os.readlink("/proc/self/ns/mnt"),
            "netns": os.readlink("/proc/self/ns/net"),
            "args": sys.argv[1:],
            "stdin": sys.stdin.read(),
            "env": sorted(os.environ),
            "nofile": resource.getrlimit(resource.RLIMIT_NOFILE),
            "core": resource.getrlimit(resource.RLIMIT_CORE),
        }
    )
)
