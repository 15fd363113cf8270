"""The lazy dispatcher: global flags, usage errors, version fast path."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from upskill import __version__
from upskill.cli import main
from upskill.commands import COMMANDS


def test_version_fast_path_does_not_import_argparse_or_typing() -> None:
    code = (
        "import sys; from upskill.cli import main; main(['--version']); "
        "print('argparse' in sys.modules, 'typing' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out == f"upskill {__version__}\nFalse False\n"


def test_top_level_help_imports_no_argparse_re_enum_typing_or_dataclasses() -> None:
    code = (
        "import sys; from upskill.cli import main; main(['--help']); "
        "print([m for m in ('argparse', 're', 'enum', 'typing', 'dataclasses') "
        "if m in sys.modules], [m for m in sys.modules if m.startswith('upskill.commands.')])"
    )
    env = {**os.environ, "COLUMNS": "80"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    ).stdout
    assert out.endswith("\n[] []\n")


def test_dispatch_loads_only_the_selected_command_and_no_dataclasses() -> None:
    """The way to a command (parser, console, World) stays light: `completion` runs at
    every shell start-up."""
    code = (
        "import sys; from upskill.cli import main; main(['completion', 'bash']); "
        "print('dataclasses' in sys.modules, "
        "[m for m in sys.modules if m.startswith('upskill.commands.')])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.endswith("\nFalse ['upskill.commands.completion']\n")


def _subcommands(selected: str | None) -> list[str]:
    import argparse

    from upskill.cli.parser import build_parser

    parser = build_parser(selected)
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(sub.choices)


def test_a_dispatch_builds_only_its_own_sub_parser() -> None:
    """A dispatch never builds the other commands' parsers; a usage error with no
    command named still lists every choice."""
    assert _subcommands("list") == ["list"]
    assert _subcommands(None) == list(COMMANDS)


@pytest.mark.parametrize("argv", [[], ["-h"], ["--help"]])
@pytest.mark.parametrize("columns", [*range(30, 130), 200, 500])
def test_top_level_help_is_argparses_own_layout(argv: list[str], columns: int) -> None:
    """`upskill.cli.usage` lays the help out without argparse: byte for byte argparse's
    text at every width (COLUMNS from the run's environment), or argparse's own below it."""
    import io

    from upskill.cli.parser import build_parser
    from upskill.world import World

    expected = build_parser(None, width=columns - 2).format_help()
    out, err = io.StringIO(), io.StringIO()
    world = World(Path("/nonexistent"), Path("/nonexistent"), {"COLUMNS": str(columns)})
    assert main(argv, world=world, stdout=out, stderr=err) == 0
    assert (out.getvalue(), err.getvalue()) == (expected, "")


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_flags(flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([flag]) == 0
    assert capsys.readouterr().out == f"upskill {__version__}\n"


def test_no_command_prints_help_listing_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    for name in COMMANDS:
        assert name in out


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["frobnicate"]) == 2
    assert "invalid choice: 'frobnicate'" in capsys.readouterr().err


def test_every_registered_command_module_exists() -> None:
    import importlib

    for module, _summary in COMMANDS.values():
        mod = importlib.import_module(f"upskill.commands.{module}")
        assert callable(mod.configure) and callable(mod.run)


def _module(*args: str, **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "upskill", *args], check=False, **kwargs)  # type: ignore[call-overload, no-any-return]


def test_entry_flushes_buffered_output_before_its_fast_exit() -> None:
    # stdout is a pipe, so block-buffered: without the flush in `entry` the
    # skipped interpreter teardown would drop the line.
    out = _module("--version", capture_output=True)
    assert (out.returncode, out.stdout, out.stderr) == (0, f"upskill {__version__}\n".encode(), b"")


def test_entry_exit_code_of_a_usage_error_survives_the_fast_exit() -> None:
    out = _module("frobnicate", capture_output=True)
    assert out.returncode == 2
    assert b"invalid choice: 'frobnicate'" in out.stderr


@pytest.mark.parametrize("unbuffered", ["", "1"])  # the error comes from flush or from write
def test_entry_reports_a_closed_stdout_quietly_with_cpythons_code(unbuffered: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = unbuffered
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before anything is written
    try:
        out = _module("--version", stdout=write_end, stderr=subprocess.PIPE, env=env)
    finally:
        os.close(write_end)
    assert (out.returncode, out.stderr) == (120, b"")


# ---------------------------------------------------------------- the error boundary


def _raising(exc: BaseException) -> object:
    def run(args: object, console: object, world: object) -> int:
        raise exc

    return run


def test_a_typed_error_is_one_line_and_its_exit_code(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import upskill.commands.lint as lint
    from upskill.errors import UpskillError

    error = UpskillError("broken on purpose", path="x/RULE.md", line=3, exit_code=4)
    monkeypatch.setattr(lint, "run", _raising(error))
    assert main(["-q", "lint"]) == 4  # -q silences progress, never the error
    out, err = capsys.readouterr()
    assert (out, err) == ("", "upskill: error: x/RULE.md:3: broken on purpose\n")


def test_a_bug_is_one_internal_error_line_and_exit_70(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import upskill.commands.lint as lint

    monkeypatch.delenv("UPSKILL_DEBUG", raising=False)
    monkeypatch.setattr(lint, "run", _raising(KeyError("surprise")))
    assert main(["lint"]) == 70
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "upskill: internal error: KeyError: 'surprise' (set UPSKILL_DEBUG=1 for the traceback)\n"
    )


@pytest.mark.parametrize("value", ["", "0"])
def test_upskill_debug_off_values_keep_the_traceback_hidden(
    value: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import upskill.commands.lint as lint

    monkeypatch.setenv("UPSKILL_DEBUG", value)
    monkeypatch.setattr(lint, "run", _raising(ValueError("boom")))
    assert main(["lint"]) == 70
    assert "Traceback" not in capsys.readouterr().err


def test_upskill_debug_prints_the_traceback_before_the_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import upskill.commands.lint as lint

    monkeypatch.setenv("UPSKILL_DEBUG", "1")
    monkeypatch.setattr(lint, "run", _raising(ValueError("boom")))
    assert main(["lint"]) == 70
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):\n")
    assert err.endswith("ValueError: boom\nupskill: internal error: ValueError: boom\n")


def test_a_bug_while_declaring_arguments_is_caught_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import upskill.commands.lint as lint

    def configure(parser: object) -> None:
        raise RuntimeError("bad flag table")

    monkeypatch.delenv("UPSKILL_DEBUG", raising=False)
    monkeypatch.setattr(lint, "configure", configure)
    assert main(["lint"]) == 70
    assert capsys.readouterr().err.startswith("upskill: internal error: RuntimeError: bad flag")


def test_interrupt_and_closed_pipe_pass_through_the_boundary(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import upskill.commands.lint as lint

    monkeypatch.setattr(lint, "run", _raising(KeyboardInterrupt()))
    assert main(["lint"]) == 130
    assert capsys.readouterr().err == "upskill: interrupted\n"
    monkeypatch.setattr(lint, "run", _raising(BrokenPipeError()))
    with pytest.raises(BrokenPipeError):  # entry() turns it into CPython's exit 120
        main(["lint"])


def test_the_console_script_reports_a_typed_error_in_one_line() -> None:
    out = _module("remove", capture_output=True, text=True)  # a bare remove is refused
    assert (out.returncode, out.stdout) == (2, "")
    assert out.stderr == (
        "upskill: error: name the items to remove, or pass --source LABEL "
        "(a bare remove is refused)\n"
    )


def test_update_has_no_yes_flag(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["update", "--yes"]) == 2
    assert "unrecognized arguments: --yes" in capsys.readouterr().err


# ---------------------------------------------------------------- the run's own world


def test_a_run_reads_its_world_not_the_process(tmp_path: Path) -> None:
    """Relative paths resolve against the world's cwd (the process's is never changed), and
    the environment, stdin and streams are the run's own."""
    import io

    from upskill.world import World

    world = World(tmp_path, tmp_path / "home", {"HOME": str(tmp_path / "home")})
    process_cwd = Path.cwd()

    def run(*argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        code = main(list(argv), world=world, stdin=io.StringIO(""), stdout=out, stderr=err)
        return code, out.getvalue(), err.getvalue()

    assert run("new", "rule", "style") == (0, "created style/RULE.md\n", "")
    assert (tmp_path / "style" / "RULE.md").is_file()
    assert not (process_cwd / "style").exists()
    code, out, err = run("lint", "style")
    assert (code, err) == (0, "")
    assert out.endswith("1 file(s) checked, 0 findings\n")
    assert run("lint", "nope") == (2, "", "upskill: error: nope: no such file or directory\n")
    assert Path.cwd() == process_cwd
