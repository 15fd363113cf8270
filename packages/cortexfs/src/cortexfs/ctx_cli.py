"""`ctx`: a thin client of the mounted /ctx tree. Only this module prints."""

from __future__ import annotations

import argparse
import os
import sys

from cortexfs import __version__
from cortexfs.errors import EXIT_BAD_INPUT, EXIT_FAILED, CtxError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ctx", description="Thin client of the /ctx tree.")
    parser.add_argument("--version", action="version", version=f"ctx {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("status", help="print 'ready' when /ctx is mounted and ready")
    sub.add_parser("abi", help="check the frozen root and list it")
    sub.add_parser("env", help="print CTX_ROOT, CTX_HOME, CTX_PATH and PATH")
    sub.add_parser("ls", help="list a directory with type strings").add_argument("path", nargs="?")
    sub.add_parser("which", help="resolve a tool along CTX_PATH").add_argument("name")
    sub.add_parser("cat", help="print a file").add_argument("path")
    set_parser = sub.add_parser("set", help="replace a control atomically")
    set_parser.add_argument("path")
    # Values are data, never options: `ctx set agent/a.d/perm --x` writes "--x".
    set_parser.add_argument("values", nargs=argparse.REMAINDER, help="one value per line")
    sub.add_parser("validate-name", help="check the object name grammar").add_argument("name")
    sub.add_parser("doctor", help="check the mount, root and CTX_* environment")
    sub.add_parser(
        "completion", help='print the shell hook for TAB completion: eval "$(ctx completion bash)"'
    ).add_argument("shell", choices=("bash", "zsh", "fish"))
    mcp = sub.add_parser("mcp", help="MCP server projection").add_subparsers(
        dest="mcp_command", required=True
    )
    project = mcp.add_parser(
        "project", help="project a stdio MCP server's tools as <server>.<tool>"
    )
    project.add_argument("server")
    project.add_argument("--into", help="tool directory (default: $CTX_HOME/tool)")
    project.add_argument("--dry-run", action="store_true")
    project.epilog = "The server command follows `--`: ctx mcp project calc -- python3 calc.py"
    from cortexfs.agent_cli import add_parser as add_agent_parser

    add_agent_parser(sub)
    return parser


def _mcp_project(env: object, args: argparse.Namespace) -> list[str]:
    from cortexfs.ctx_env import CtxEnv
    from cortexfs.errors import BadInput
    from cortexfs.mcp_client import McpSession
    from cortexfs.mcp_project import apply_projection, plan_projection

    assert isinstance(env, CtxEnv)
    command = args.server_command
    if not command:
        raise BadInput(
            "usage: ctx mcp project SERVER [--into DIR] [--dry-run] -- COMMAND [ARGS...]"
        )
    with McpSession(command) as session:
        session.initialize()
        planned = plan_projection(args.server, command, session.list_tools())
    into = args.into or os.path.join(env.home, "tool")
    if args.dry_run:
        return [f"would project {os.path.join(into, t.name)}" for t in planned]
    return apply_projection(into, planned)


def _dispatch(args: argparse.Namespace) -> int:
    from cortexfs import ctx_commands as cmd
    from cortexfs.ctx_env import ctx_env

    env = ctx_env(os.environ, os.getuid())
    command = args.command
    if command == "cat":
        sys.stdout.buffer.write(cmd.cat(env, args.path))
        return 0
    if command == "agent":
        from cortexfs.agent_cli import dispatch as agent_dispatch

        return agent_dispatch(env, args, args.server_command)
    if command == "doctor":
        lines, healthy = cmd.doctor(env)
        print("\n".join(lines))
        return 0 if healthy else EXIT_FAILED
    handlers = {
        "status": lambda: cmd.status(env),
        "abi": lambda: cmd.abi(env),
        "env": lambda: cmd.env_lines(env, os.environ.get("PATH", "")),
        "ls": lambda: cmd.ls(env, args.path),
        "which": lambda: cmd.which_cmd(env, args.name),
        "set": lambda: cmd.set_control(env, args.path, args.values),
        "validate-name": lambda: cmd.validate_name(args.name),
        "mcp": lambda: _mcp_project(env, args),
    }
    for line in handlers[command]():
        print(line)
    return 0


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    if argv is None and "_ARGCOMPLETE" in os.environ:  # a shell asks what TAB completes
        import argcomplete

        argcomplete.autocomplete(_parser())  # answers and exits the process
    # Everything after `--` is a command line for another program (an MCP server, a
    # hosted agent CLI).
    split = words.index("--") if "--" in words else len(words)
    try:
        args = _parser().parse_args(words[:split])
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    args.server_command = words[split + 1 :]
    if args.command == "set" and split < len(words):  # `ctx set PATH -- -x`: -- ends options
        args.values += args.server_command
    if args.command == "completion":  # needs no /ctx mount
        from argcomplete.shell_integration import shellcode

        sys.stdout.write(shellcode(["ctx"], shell=args.shell))
        return 0
    try:
        return _dispatch(args)
    except CtxError as exc:
        print(f"ctx: {exc.message}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:
        return EXIT_FAILED
