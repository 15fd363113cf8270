"""The lazy dispatcher: global flags, usage errors, version fast path."""

import os
import subprocess
import sys

import pytest

from upskill import __version__
from upskill.cli import main
from upskill.commands import COMMANDS


def test_version_fast_path_does_not_import_argparse() -> None:
    code = (
        "import sys; from upskill.cli import main; main(['--version']); "
        "print('argparse' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out == f"upskill {__version__}\nFalse\n"


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
