"""Fake MCP servers for the tests and the bench: one JSON-RPC stdio loop, defined once.

A fake server is a standalone script, written to a file and run by whichever
interpreter the test needs (the projected tool's runner, the warm host, another uid),
so it cannot import this module: the loop is shared as source. A server's script is
`server_source(name, body)`: `body` defines `TOOLS` (the `tools/list` answer) and
`call(name, arguments)`, which returns the `tools/call` result or raises
`RpcError(code, message)` for a JSON-RPC error. The loop answers `initialize` and
`tools/list` itself, skips notifications, and refuses other methods with -32601.
"""

from __future__ import annotations

_PRELUDE = r'''
import json as _json, sys as _sys


class RpcError(Exception):
    """Answered as a JSON-RPC error instead of a result."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def _reply(ident, key, value):
    print(_json.dumps({"jsonrpc": "2.0", "id": ident, key: value}), flush=True)
'''

_LOOP = r"""
for _line in _sys.stdin:
    _msg = _json.loads(_line)
    if "id" not in _msg:
        continue
    _method, _ident = _msg["method"], _msg["id"]
    try:
        if _method == "initialize":
            _reply(_ident, "result", {"protocolVersion": "2025-06-18",
                   "capabilities": {"tools": {}}, "serverInfo": {"name": NAME, "version": "1"}})
        elif _method == "tools/list":
            _reply(_ident, "result", {"tools": TOOLS})
        elif _method == "tools/call":
            _params = _msg["params"]
            _reply(_ident, "result", call(_params["name"], _params.get("arguments", {})))
        else:
            raise RpcError(-32601, "no such method")
    except RpcError as _error:
        _reply(_ident, "error", {"code": _error.code, "message": str(_error)})
"""


def server_source(name: str, body: str, after: str = "") -> str:
    """The script of a fake server called `name`; `after` runs once stdin is closed."""
    return f"{_PRELUDE}\nNAME = {name!r}\n{body}\n{_LOOP}\n{after}"


CALC_SERVER = server_source(
    "calc",
    r"""
TOOLS = [
    {"name": "add", "description": "Add two\nnumbers", "inputSchema": {"type": "object",
     "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]},
     "annotations": {"readOnlyHint": True, "openWorldHint": False}},
    {"name": "fail", "description": "Always fails", "inputSchema": {"type": "object"}},
]


def call(name, args):
    if name != "add":
        return {"content": [{"type": "text", "text": "boom"}], "isError": True}
    if not all(isinstance(args.get(k), (int, float)) for k in ("a", "b")):
        raise RpcError(-32602, "a and b must be numbers")
    return {"content": [{"type": "text", "text": str(args["a"] + args["b"])}]}
""",
)
"""`add` (read-only, two numbers) and `fail` (a tool error): the tests' projected server,
and the bench's `--server calc`."""
