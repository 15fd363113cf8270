"""The lazy dispatcher: global flags, usage errors, version fast path."""

import subprocess
import sys

import pytest

from upskill import __version__
from upskill.cli import COMMANDS, main


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
