"""The tool broker: outside the sandbox, one per running agent, it authenticates the
caller (SO_PEERCRED: the agent's uid, a process of one of the agent's sandboxes),
authorises each call on facts it derives itself, and runs what is allowed with the
agent's identity. Protocol `cortexfs.broker/v1` (protocol.py) is JSONL with versioned
request `op`s, so more request types (warm MCP sessions) can be added beside `call`.
"""
