"""Shell completion, asked of the real shells (issue 19, 10).

Each shell loads the hook `upskill completion <shell>` prints, then completes a
command line: the answer comes from the full parser, every command's options included.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from upskill_cli import UPSKILL

BIN = str(Path(UPSKILL).parent)


def _shell(argv: list[str]) -> str:
    if shutil.which(argv[0]) is None:
        pytest.fail(f"{argv[0]} is not installed (.ci/run installs it)", pytrace=False)
    env = {**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}"}
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


BASH = """
source <(upskill completion bash)
COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}; read -ra COMP_WORDS <<< "$1"
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
_python_argcomplete upskill "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"
printf '%s\\n' "${COMPREPLY[@]}"
"""


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("upskill ad", ["add"]),
        ("upskill add --cl", ["--claude", "--cline"]),
        ("upskill rem", ["remove", "remove-mcp"]),
    ],
)
def test_bash(line: str, expected: list[str]) -> None:
    out = _shell(["bash", "-c", BASH, "bash", line])
    assert sorted(w.strip() for w in out.splitlines()) == expected


def test_fish() -> None:
    script = (
        'upskill completion fish | source; complete -C "upskill ad"; '
        'complete -C "upskill doctor --j"'
    )
    out = _shell(["fish", "-c", script])
    assert [line.split("\t")[0] for line in out.splitlines()] == ["add", "--json"]


def test_zsh_registers_the_hook() -> None:
    script = (
        "autoload -U compinit; compinit -u; source <(upskill completion zsh); "
        "print -- $_comps[upskill]"
    )
    assert _shell(["zsh", "-c", script]).strip() == "_python_argcomplete"


def test_an_unknown_shell_is_a_usage_error(tmp_path: Path) -> None:
    out = subprocess.run(
        [UPSKILL, "completion", "tcsh"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert out.returncode == 2 and "invalid choice: 'tcsh'" in out.stderr
