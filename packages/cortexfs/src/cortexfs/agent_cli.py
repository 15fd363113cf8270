"""`ctx agent new|start|stop|status|send|cancel`: the argument parsing and printing."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from cortexfs.ctx_env import CtxEnv
from cortexfs.errors import EXIT_FAILED


def add_parser(sub: Any) -> None:
    agent = sub.add_parser("agent", help="create, start, stop and talk to agents").add_subparsers(
        dest="agent_command", required=True
    )
    new = agent.add_parser("new", help="create agent/<name> (mkdir <name>.d) and set controls")
    new.add_argument("name")
    new.add_argument("--uid", type=int)
    new.add_argument("--gid", type=int)
    new.add_argument("--groups", help="supplementary gids, comma-separated")
    new.add_argument("--label", help="user:role:type:level; the type is the policy subject")
    new.add_argument("--perm", help="rwx ceiling such as r-x")
    new.add_argument("--iso", choices=("0", "1"))
    new.add_argument("--tool", action="append", default=[], help="a tool it may call")
    new.add_argument("--allow", action="append", default=[], help="a policy line")
    new.add_argument("--mount", action="append", default=[], help="SRC:DST:ro|rw[:OPTS]")
    new.add_argument("--env", action="append", default=[], help="KEY=VALUE")
    start = agent.add_parser("start", help="start the agent; the hosted command follows --")
    start.add_argument("name")
    start.add_argument("--pty", action="store_true", help="give the command a terminal")
    start.add_argument("--workspace", help="directory bound at /workspace (default: cwd)")
    start.add_argument("--no-workspace", action="store_true")
    for limit in ("memory", "tasks", "cpu", "nofile"):
        start.add_argument(f"--{limit}", type=int)
    stop = agent.add_parser("stop", help="stop the agent and every turn it runs")
    stop.add_argument("name")
    status = agent.add_parser("status", help="show whether and how the agent runs")
    status.add_argument("name")
    status.add_argument("--json", action="store_true")
    send = agent.add_parser("send", help="send input (arguments, or stdin) as one turn")
    send.add_argument("name")
    send.add_argument("input", nargs="*")
    send.add_argument("--session", default="default")
    send.add_argument("--id", dest="turn_id")
    send.add_argument("--cwd", help="the turn's working directory inside the sandbox")
    scope = send.add_mutually_exclusive_group()
    scope.add_argument("--temp", action="store_true", help="keep no session records")
    scope.add_argument("--shared", metavar="SPACE",
                       help="keep the session in shared/SPACE/agent/NAME/session/")  # fmt: skip
    send.add_argument("--json", action="store_true", help="print the JSONL events")
    cancel = agent.add_parser("cancel", help="cancel one turn (or all) by process group")
    cancel.add_argument("name")
    cancel.add_argument("turn_id", nargs="?")


def _print_status(status: dict[str, Any]) -> None:
    for key in ("agent", "state", "pid", "socket", "started_at", "network", "cgroup"):
        if status.get(key) is not None:
            print(f"{key}\t{status[key]}")
    identity = status.get("identity")
    if isinstance(identity, dict):
        groups = ",".join(str(g) for g in identity.get("groups", []))
        ids = f"uid={identity.get('uid')} gid={identity.get('gid')} groups={groups}"
        print(f"identity\t{ids} umask={identity.get('umask')}")
    if status.get("command"):
        print("command\t" + " ".join(status["command"]))
    for note in status.get("notes", []):
        print(f"note\t{note}")
    for turn in status.get("turns", []):
        print(f"turn\t{turn.get('id')}\t{turn.get('session')}\t{turn.get('state')}")


def dispatch(env: CtxEnv, args: argparse.Namespace, trailing: list[str]) -> int:
    from cortexfs import agent_commands as cmd

    which = args.agent_command
    if which == "new":
        print(cmd.new(env, args))
        return 0
    if which == "start":
        print(cmd.start(env, args, trailing))
        return 0
    if which == "stop":
        print(cmd.stop(env, args.name))
        return 0
    if which == "status":
        status = cmd.status(env, args.name)
        if args.json:
            print(json.dumps(status, sort_keys=True))
        else:
            _print_status(status)
        return 0
    if which == "cancel":
        for ident in cmd.cancel(env, args.name, args.turn_id):
            print(f"cancelled {ident}")
        return 0
    return _send(env, args, cmd)


def _send(env: CtxEnv, args: argparse.Namespace, cmd: Any) -> int:
    text = " ".join(args.input) if args.input and args.input != ["-"] else sys.stdin.read()
    done: dict[str, Any] = {}
    for event in cmd.send(env, args, text):
        if args.json:
            print(json.dumps(event, sort_keys=True), flush=True)
        elif event.get("type") == "delta":
            sys.stdout.write(str(event.get("text", "")))
            sys.stdout.flush()
        elif event.get("type") == "error":
            print(f"ctx: {event.get('errno')}: {event.get('message')}", file=sys.stderr)
        done = event
    status, code = done.get("status"), done.get("exit_code")
    if status == "ok":
        return 0
    if status == "cancelled":
        print(f"ctx: turn {done.get('id')} was cancelled", file=sys.stderr)
        return EXIT_FAILED
    return code if type(code) is int and 0 < code < 256 else EXIT_FAILED
