"""Command-line layer: parse argv, dispatch, and the only place that prints."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import IO, NoReturn

from agents_md_compiler.completion import SHELLS
from agents_md_compiler.errors import EXIT_ERROR, CompilerError, MutationError
from agents_md_compiler.invocation import Invocation
from agents_md_compiler.outcome import Outcome
from agents_md_compiler.seams import Seams
from agents_md_compiler.version import installed_version

PROG = "agents-md-compiler"
FORMAT_TEXT = "text"
FORMAT_JSON = "json"
ENVELOPE_SCHEMA_VERSION = 1
Handler = Callable[[Invocation], Outcome]


class ParseError(Exception):
    """argparse refused the command line; usage is the parser's usage text."""

    def __init__(self, usage: str, message: str) -> None:
        super().__init__(message)
        self.usage, self.message = usage, message


class _Parser(argparse.ArgumentParser):
    """argparse errors exit 1 (the contract reserves 2 for a read-only difference)."""

    def error(self, message: str) -> NoReturn:
        raise ParseError(self.format_usage(), f"{self.prog}: error: {message}")


def _add_common(parser: argparse.ArgumentParser, *, top: bool) -> None:
    suffix = "top" if top else "sub"
    default = FORMAT_TEXT if top else argparse.SUPPRESS
    parser.add_argument(
        "--format", dest=f"format_{suffix}", choices=(FORMAT_TEXT, FORMAT_JSON), default=default
    )
    parser.add_argument(
        "--quiet",
        dest=f"quiet_{suffix}",
        action="store_true",
        default=False if top else argparse.SUPPRESS,
        help="suppress non-error stderr",
    )


def _paths(parser: argparse.ArgumentParser, *names: str) -> None:
    for name in names:
        parser.add_argument(f"--{name}", metavar="PATH")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Compile AGENTS.md from a TOML manifest of modules.")
    _add_common(parser, top=True)
    parser.add_argument("--version", dest="show_version", action="store_true")
    subs = parser.add_subparsers(dest="command", parser_class=_Parser)

    def sub(name: str, help_text: str) -> argparse.ArgumentParser:
        child = subs.add_parser(name, help=help_text, description=help_text)
        _add_common(child, top=False)
        return child

    init = sub("init", "scaffold an example manifest and modules")
    init.add_argument("--directory", metavar="PATH")
    init.add_argument("--bundle-id", metavar="IDENT")
    init.add_argument("--target", metavar="PATH")
    lock = sub("lock", "validate sources and write the deterministic lock")
    _paths(lock, "manifest", "lock")
    lock.add_argument("--check", action="store_true", help="read-only: exit 2 if stale")
    validate = sub("validate", "validate manifest, lock, sources and rendered structure")
    _paths(validate, "manifest", "lock", "target")
    render = sub("render", "emit rendered bytes to stdout (or a new --output file)")
    _paths(render, "manifest", "lock", "output")
    render.add_argument("--locked", action="store_true", help="require a current lock")
    for name, text in (
        ("check", "compare a fresh render with the target"),
        ("status", "report source, lock, target, override and receipts"),
    ):
        _paths(sub(name, text), "manifest", "lock", "target")
    install = sub("install", "back up and atomically install (only with --apply)")
    _paths(install, "manifest", "lock", "target")
    install.add_argument("--apply", action="store_true")
    install.add_argument("--replace-unmanaged", action="store_true")
    install.add_argument("--expect-target-sha256", metavar="HEX64")
    rollback = sub("rollback", "restore one install receipt (only with --apply)")
    _paths(rollback, "manifest", "lock", "target")
    rollback.add_argument("--receipt", metavar="PATH", required=True)
    rollback.add_argument("--apply", action="store_true")
    codex = sub("verify-codex", "check that Codex sees every module in its startup input")
    _paths(codex, "manifest", "lock", "target", "cwd")
    codex.add_argument("--timeout", metavar="SECONDS", type=float, default=60.0)
    sub("version", "print the installed version")
    completion = sub("completion", "print a shell completion script (bash, zsh or fish)")
    completion.add_argument("shell", choices=SHELLS)
    return parser


def _handlers() -> dict[str, Handler]:
    """Imported lazily so `version` and `--help` stay cheap."""
    from agents_md_compiler.cmd_codex import cmd_verify_codex
    from agents_md_compiler.cmd_mutate import cmd_install, cmd_rollback
    from agents_md_compiler.cmd_static import (
        cmd_check,
        cmd_lock,
        cmd_render,
        cmd_status,
        cmd_validate,
    )
    from agents_md_compiler.completion import cmd_completion
    from agents_md_compiler.scaffold import cmd_init

    return {
        "init": cmd_init,
        "lock": cmd_lock,
        "validate": cmd_validate,
        "render": cmd_render,
        "check": cmd_check,
        "status": cmd_status,
        "install": cmd_install,
        "rollback": cmd_rollback,
        "verify-codex": cmd_verify_codex,
        "completion": cmd_completion,
    }


def resolve_format(args: argparse.Namespace) -> str:
    value = getattr(args, "format_sub", None) or getattr(args, "format_top", FORMAT_TEXT)
    return str(value)


def resolve_quiet(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "quiet_sub", False) or getattr(args, "quiet_top", False))


def _prescan(argv: Sequence[str]) -> tuple[str, str | None]:
    """Best-effort format and command for reporting a parse error."""
    fmt, command = FORMAT_TEXT, None
    known = set(_COMMANDS)
    for index, word in enumerate(argv):
        value = None
        if word == "--format" and index + 1 < len(argv):
            value = argv[index + 1]
        elif word.startswith("--format="):
            value = word.split("=", 1)[1]
        elif command is None and word in known:
            command = word
        if value in (FORMAT_TEXT, FORMAT_JSON):
            fmt = value
    return fmt, command


_COMMANDS = (
    "init",
    "lock",
    "validate",
    "render",
    "check",
    "status",
    "install",
    "rollback",
    "verify-codex",
    "version",
)


def emit_json(document: dict[str, object], stream: IO[str]) -> None:
    stream.write(json.dumps(document, sort_keys=True) + "\n")


class Printer:
    def __init__(self, fmt: str, quiet: bool, command: str | None) -> None:
        self.fmt, self.quiet, self.command = fmt, quiet, command

    def _line(self, text: str, *, command: bool = True) -> None:
        prefix = f"{PROG}: {self.command}: " if command and self.command else f"{PROG}: "
        sys.stderr.write(prefix + text + "\n")

    def error(self, exc: CompilerError) -> int:
        """Every error: one JSON envelope in JSON mode, and its message on stderr always."""
        if self.fmt == FORMAT_JSON:
            error: dict[str, object] = {"kind": type(exc).__name__, "message": exc.message}
            paths = exc.paths()
            if paths is not None:
                error["paths"] = paths
            state = None if exc.state is None else str(exc.state)
            emit_json(self.envelope(False, state) | {"error": error}, sys.stdout)
        label = "error" if exc.state is None else str(exc.state)
        self._line(f"{label}: {exc.describe()}")
        return exc.exit_code

    def parse_error(self, exc: ParseError) -> int:
        """argparse's own usage and message on stderr; JSON mode still gets its one
        envelope (the contract's "exactly one JSON object"; the reference prints none)."""
        if self.fmt == FORMAT_JSON:
            error = {"kind": "UsageError", "message": exc.message}
            emit_json(self.envelope(False, None) | {"error": error}, sys.stdout)
        sys.stderr.write(exc.usage + exc.message + "\n")
        return EXIT_ERROR

    def outcome(self, outcome: Outcome) -> int:
        state = None if outcome.state is None else str(outcome.state)
        if self.fmt == FORMAT_JSON:
            emit_json(self.envelope(outcome.succeeded, state) | outcome.fields, sys.stdout)
        elif outcome.stdout is not None:
            sys.stdout.flush()
            sys.stdout.buffer.write(outcome.stdout)
            sys.stdout.buffer.flush()
        elif outcome.text is not None:
            sys.stdout.write(outcome.text)
        elif state is not None:
            sys.stdout.write(state + "\n")
        if self.fmt == FORMAT_TEXT:
            for line in outcome.text_diagnostics:
                self._line(line)
        for line in outcome.diagnostics:
            self._line(line)
        if not self.quiet and self.fmt == FORMAT_TEXT:
            for line in outcome.notes:
                self._line(line, command=False)
        return outcome.exit_code

    def envelope(self, ok: bool, state: str | None) -> dict[str, object]:
        return {
            "command": self.command,
            "ok": ok,
            "schema_version": ENVELOPE_SCHEMA_VERSION,
            "state": state,
        }


def main(argv: Sequence[str] | None = None, *, seams: Seams | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    fmt, command = _prescan(args_list)
    parser = build_parser()
    try:
        args = parser.parse_args(args_list)
    except ParseError as exc:
        return Printer(fmt, False, command).parse_error(exc)
    printer = Printer(resolve_format(args), resolve_quiet(args), args.command)
    if args.show_version or args.command == "version":
        printer.command = "version"
        version = installed_version()
        if printer.fmt == FORMAT_JSON:
            emit_json(printer.envelope(True, None) | {"version": version}, sys.stdout)
        else:
            sys.stdout.write(version + "\n")
        return 0
    if args.command is None:
        message = f"{PROG}: no command given. Run '{PROG} --help'."
        return printer.parse_error(ParseError(parser.format_usage(), message))
    invocation = Invocation(args, seams or Seams())
    try:
        outcome = _handlers()[args.command](invocation)
    except CompilerError as exc:
        return printer.error(exc)
    except OSError as exc:  # last resort: an operating-system failure no step anticipated
        where = None if exc.filename is None else os.fsdecode(exc.filename)
        reason = exc.strerror or type(exc).__name__
        return printer.error(MutationError(f"operation failed ({reason})", lexical=where))
    return printer.outcome(outcome)
