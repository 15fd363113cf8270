"""Flags shared by the lifecycle commands (declared once, parsed the same way).

The client registry (every client module) loads only for the commands that take
client flags: `list`, `doctor` or `remove` do not pay for it at start-up.
"""

from __future__ import annotations

import argparse


def scope_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-g", "--global", dest="global_", action="store_true", help="use the global scope ($HOME)"
    )
    parser.add_argument(
        "-p", "--project", action="store_true", help="use the project scope (the current directory)"
    )


def client_flags(parser: argparse.ArgumentParser) -> None:
    from upskill.clients import SELECTABLE_CLIENTS

    parser.add_argument(
        "--all", dest="all_clients", action="store_true", help="select every supported client"
    )
    for client in SELECTABLE_CLIENTS:
        parser.add_argument(
            f"--{client}",
            action="store_true",
            help=f"restrict to {client} (allowlist; combine freely)",
        )


def chosen_clients(args: argparse.Namespace) -> tuple[str, ...]:
    from upskill.clients import SELECTABLE_CLIENTS

    if getattr(args, "all_clients", False):
        return SELECTABLE_CLIENTS
    return tuple(c for c in SELECTABLE_CLIENTS if getattr(args, c, False))


def strict_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--strict",
        action="store_true",
        help="fail when any item of a source is invalid, instead of skipping it (for CI)",
    )


def json_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json",
        action="store_true",
        help="print what was planned and done as JSON on stdout (docs/upskill/schemas/)",
    )


def dry_run_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-n", "--dry-run", action="store_true", help="print the plan and write nothing"
    )
