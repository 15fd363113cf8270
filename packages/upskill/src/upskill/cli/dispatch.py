"""Parse the command line and run the selected command."""

from __future__ import annotations

from upskill import exitcodes
from upskill.cli.parser import UsageExit, build_parser, load_command, selected_command
from upskill.commands import COMMANDS


def dispatch(argv: list[str]) -> int:
    parser = build_parser(selected_command(argv))
    try:
        args = parser.parse_args(argv)
    except UsageExit:
        return exitcodes.USAGE
    if args.command is None:
        parser.print_help()
        return exitcodes.OK
    return load_command(COMMANDS[args.command][0]).run(args)
