"""What bundle MCP servers and plugins share: the clients' side of a run.

Both reach a client the same two ways: through its CLI (`clientcli`, the
seam tests replace) or by editing its JSON/JSONC config file (`configfile`).
Where those files live for a scope is `places`. The `mcp` and `plugins`
packages build on this and stay independent of each other.
"""
