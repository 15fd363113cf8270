"""Shell completion scripts for bash, zsh and fish, generated from the argument parser.

agents-md-compiler is embedded in other tools and stays standard-library only, so
neither argcomplete (which re-runs the program on every TAB) nor shtab can be a
run-time dependency. It does not need them: the command line is one level deep
(global options, a command, that command's options), so one static script per
shell answers every TAB without starting Python. The grammar is read off
`cli.build_parser()`, so a new option reaches completion with no second list.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from agents_md_compiler.invocation import Invocation
from agents_md_compiler.outcome import Outcome

SHELLS = ("bash", "zsh", "fish")
FUNCTION = "_agents_md_compiler"


@dataclass(frozen=True)
class Option:
    flag: str
    value: str  # "" (a switch), "path", "choice" or "text"
    choices: tuple[str, ...]
    help: str


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    options: tuple[Option, ...]
    positional: tuple[str, ...]  # the choices of a positional argument (completion SHELL)


def cmd_completion(inv: Invocation) -> Outcome:
    from agents_md_compiler.cli import PROG, build_parser

    shell = inv.args.shell  # one of SHELLS: argparse's choices refused any other
    text = script(shell, build_parser(), PROG)
    return Outcome(None, 0, {"shell": shell, "script": text}, stdout=text.encode())


def script(shell: str, parser: argparse.ArgumentParser, prog: str) -> str:
    top, commands = grammar(parser)
    render = {"bash": _bash, "zsh": _zsh, "fish": _fish}[shell]
    return render(prog, top, commands)


def grammar(parser: argparse.ArgumentParser) -> tuple[tuple[Option, ...], tuple[Command, ...]]:
    """The global options and each command with its options, in the parser's order."""
    commands: list[Command] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, child in action.choices.items():
                positional = tuple(
                    str(choice)
                    for sub in child._actions
                    if not sub.option_strings and sub.choices
                    for choice in sub.choices
                )
                commands.append(Command(name, helps.get(name, ""), _options(child), positional))
    return _options(parser), tuple(commands)


def _options(parser: argparse.ArgumentParser) -> tuple[Option, ...]:
    found: list[Option] = []
    for action in parser._actions:
        long_flags = [flag for flag in action.option_strings if flag.startswith("--")]
        if not long_flags:
            continue
        choices: tuple[str, ...] = ()
        if action.nargs == 0:
            value = ""
        elif action.choices:
            value, choices = "choice", tuple(str(choice) for choice in action.choices)
        elif action.metavar == "PATH":
            value = "path"
        else:
            value = "text"
        text = action.help if isinstance(action.help, str) and action.help != "==SUPPRESS==" else ""
        found.extend(Option(flag, value, choices, text) for flag in long_flags)
    return tuple(found)


def _takes_value(top: tuple[Option, ...], commands: tuple[Command, ...]) -> dict[str, Option]:
    """Every option that takes a value, by flag; one flag must mean one kind of value."""
    by_flag: dict[str, Option] = {}
    for option in (*top, *(option for command in commands for option in command.options)):
        if not option.value:
            continue
        seen = by_flag.setdefault(option.flag, option)
        if (seen.value, seen.choices) != (option.value, option.choices):
            raise ValueError(f"{option.flag} takes different values in different commands")
    return by_flag


def _words(options: tuple[Option, ...], extra: tuple[str, ...] = ()) -> str:
    return " ".join((*extra, *(option.flag for option in options)))


def _bash_function(top: tuple[Option, ...], commands: tuple[Command, ...]) -> str:
    values = _takes_value(top, commands)
    paths = "|".join(flag for flag, option in values.items() if option.value == "path")
    texts = "|".join(flag for flag, option in values.items() if option.value == "text")
    lines = [
        f"{FUNCTION}() {{",
        "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd= i",
        "    for ((i = 1; i < COMP_CWORD; i++)); do",
        "        case ${COMP_WORDS[i]} in",
        f"            {'|'.join(command.name for command in commands)}) "
        "cmd=${COMP_WORDS[i]}; break ;;",
        "        esac",
        "    done",
        "    case $prev in",
    ]
    for flag, option in values.items():
        if option.value == "choice":
            lines.append(
                f'        {flag}) COMPREPLY=($(compgen -W "{" ".join(option.choices)}" -- "$cur"))'
                "; return ;;"
            )
    if paths:
        lines.append(
            f"        {paths}) compopt -o filenames 2>/dev/null; "
            'COMPREPLY=($(compgen -f -- "$cur")); return ;;'
        )
    if texts:
        lines.append(f"        {texts}) COMPREPLY=(); return ;;")
    lines += ["    esac", "    case $cmd in"]
    names = tuple(command.name for command in commands)
    lines.append(f'        "") COMPREPLY=($(compgen -W "{_words(top, names)}" -- "$cur")) ;;')
    for command in commands:
        words = _words(command.options, command.positional)
        lines.append(f'        {command.name}) COMPREPLY=($(compgen -W "{words}" -- "$cur")) ;;')
    lines += ["    esac", "}"]
    return "\n".join(lines) + "\n"


def _bash(prog: str, top: tuple[Option, ...], commands: tuple[Command, ...]) -> str:
    return (
        f'# {prog} completion for bash: eval "$({prog} completion bash)"\n'
        + _bash_function(top, commands)
        + f"complete -F {FUNCTION} {prog}\n"
    )


def _zsh(prog: str, top: tuple[Option, ...], commands: tuple[Command, ...]) -> str:
    """zsh runs the bash function through its own bashcompinit layer (compgen, complete)."""
    return (
        f'# {prog} completion for zsh: eval "$({prog} completion zsh)" after compinit\n'
        "autoload -U +X bashcompinit && bashcompinit\n"
        + _bash_function(top, commands)
        + f"complete -F {FUNCTION} {prog}\n"
    )


def _fish(prog: str, top: tuple[Option, ...], commands: tuple[Command, ...]) -> str:
    names = " ".join(command.name for command in commands)
    lines = [
        f"# {prog} completion for fish: {prog} completion fish | source",
        f"complete -c {prog} -f",
    ]
    for command in commands:
        lines.append(
            f"complete -c {prog} -n 'not __fish_seen_subcommand_from {names}' "
            f"-a {command.name} -d {_fish_quote(command.help)}"
        )
    for option in top:
        lines.append(_fish_option(prog, option, f"not __fish_seen_subcommand_from {names}"))
    for command in commands:
        condition = f"__fish_seen_subcommand_from {command.name}"
        for option in command.options:
            lines.append(_fish_option(prog, option, condition))
        if command.positional:
            lines.append(f"complete -c {prog} -n '{condition}' -a '{' '.join(command.positional)}'")
    return "\n".join(lines) + "\n"


def _fish_option(prog: str, option: Option, condition: str) -> str:
    line = f"complete -c {prog} -n '{condition}' -l {option.flag.removeprefix('--')}"
    if option.value == "path":
        line += " -r -F"
    elif option.value == "choice":
        line += f" -x -a '{' '.join(option.choices)}'"
    elif option.value == "text":
        line += " -x"
    if option.help:
        line += f" -d {_fish_quote(option.help)}"
    return line


def _fish_quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
