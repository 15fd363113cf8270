"""The object runner: resolve the object, enforce policy and the perm ceiling, run it.

The kernel hands an executable object to us via its shebang (argv[1] is the object's
path). Everything the caller learns is JSONL on stdout plus the exit code.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from typing import IO

from cortexfs.authorize import authorize_model, authorize_tool
from cortexfs.ctx_env import CtxEnv, ctx_env
from cortexfs.drivers import run_driver
from cortexfs.errors import EXIT_INTERNAL, EXIT_UNAVAILABLE, BadInput, CtxError, Denied, Unavailable
from cortexfs.events import EventWriter
from cortexfs.mcp_calls import Sessions
from cortexfs.objects import ObjectClass, ObjectHeader
from cortexfs.resolve import (
    load_agent,
    load_driver,
    load_header,
    load_schema,
    load_tool,
    locate,
    on_ctx_path,
)


def authorize_call(env: CtxEnv, path: str, header: ObjectHeader) -> None:
    """Every check a call must pass; shared with the broker, which runs it outside the
    sandbox on facts it derived itself."""
    if header.object_class is ObjectClass.TOOL:
        on_ctx_path(env, path, header.name)
        agent = load_agent(env)
        authorize_tool(env.uid, agent, load_tool(f"{path}.d", header.name))
    elif header.object_class is ObjectClass.MODEL:
        authorize_model(env.uid, load_agent(env), header.name)
    else:
        raise Unavailable(
            f"{path}: {header.object_class.value} objects run under the agent launcher "
            "(ctx agent start), not as calls"
        )


def _inside(root: str, path: str) -> bool:
    real_root = os.path.realpath(root)
    return os.path.realpath(path).startswith(real_root.rstrip("/") + "/")


def trusted_tree(env: CtxEnv, path: str) -> None:
    """Decide nothing on a tree that is not a live CortexFS mount: a plain directory
    named by CTX_ROOT, CTX_HOME or CTX_PATH could hold any forged agent and tool."""
    from cortexfs.launch.mountcheck import is_cortexfs_mount

    if not is_cortexfs_mount(env.root):
        raise Denied(f"CTX_ROOT={env.root} is not a CortexFS mount; nothing is authorised")
    outside = [p for p in (env.home, *env.path, path) if not _inside(env.root, p)]
    if outside:
        raise Denied(f"{outside[0]} is outside the CortexFS mount {env.root}")


def _call(
    env: CtxEnv, path: str, header: ObjectHeader, args: list[str], stdin: IO[bytes] | None,
    writer: EventWriter, sessions: Sessions | None,
) -> int:  # fmt: skip
    authorize_call(env, path, header)
    controls = f"{path}.d"
    driver = load_driver(controls)
    schema = load_schema(controls) if driver.get("kind") == "mcp" else None
    return run_driver(driver, f"{controls}/driver", args, stdin, writer, schema, sessions)


def run(
    argv: list[str],
    environ: Mapping[str, str],
    uid: int,
    stdin: IO[bytes] | None,
    out: IO[str],
    sessions: Sessions | None = None,
) -> int:
    """One call, decided on `environ` as the caller's; `sessions` runs MCP calls (the
    warm host passes its pool; None starts a server for this call)."""
    writer = EventWriter(out)
    try:
        if not argv:
            raise BadInput("usage: cortexfs-object-runner OBJECT [ARGS...]")
        env = ctx_env(environ, uid)
        path = locate(env, argv[0])
        trusted_tree(env, path)
        header = load_header(path)
    except CtxError as exc:
        writer.error(exc.errno_name, exc.message)
        writer.done(exc.exit_code)
        return exc.exit_code
    writer.start(path, header.name, header.object_class.value)
    return guarded(writer, lambda: _call(env, path, header, argv[1:], stdin, writer, sessions))


def guarded(writer: EventWriter, call: Callable[[], int]) -> int:
    """Run `call`; a refusal or failure becomes an `error` event; `done` always ends it."""
    try:
        code = call()
    except CtxError as exc:
        writer.error(exc.errno_name, exc.message)
        code = exc.exit_code
    except Exception as exc:  # the contract promises JSONL and 70, never a traceback
        writer.error("EIO", f"internal error: {type(exc).__name__}: {exc}")
        code = EXIT_INTERNAL
    writer.done(code)
    return code


def run_bin(argv: list[str]) -> int | None:
    """`/ctx/bin/<name>` objects are commands, not policy-checked calls: `ctx`, `ctxterm`
    and `tsh`. None when argv does not name a bin object."""
    if not argv or "/" not in argv[0]:
        return None
    try:
        header = load_header(argv[0])
    except CtxError:
        return None
    if header.object_class is not ObjectClass.BIN:
        return None
    if header.name == "ctx":
        from cortexfs.ctx_cli import main as ctx_main

        return ctx_main(argv[1:])
    if header.name == "ctxterm":
        from cortexfs.ctxterm import main as ctxterm_main

        return ctxterm_main(argv[1:])
    if header.name == "tsh":
        from cortexfs.tsh import main as tsh_main

        return tsh_main(argv[1:])
    print(f"{header.name}: not provided by this CortexFS build", file=sys.stderr)
    return EXIT_UNAVAILABLE
