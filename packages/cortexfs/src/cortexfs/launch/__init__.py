"""The agent launch chain: agent object + policy + host facts -> one exact argv.

Data flow: `load` reads the agent's controls from the mount, `spec` parses them,
`identity`, `mounts`, `network` and `limits` derive each part (pure), `chain` assembles
the argv (pure), `host` gathers the facts the planning needs about this machine.
"""
