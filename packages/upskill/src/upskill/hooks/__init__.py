"""Extension hooks: how bundle MCP servers and plugins join a lifecycle run.

`api` holds the protocol and the values passed across it; `registry` names
the hooks by dotted path and imports them only when a run needs them, so
the lifecycle never imports the MCP or plugin code it calls.
"""
