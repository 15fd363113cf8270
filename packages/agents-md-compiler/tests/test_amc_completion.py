"""Shell completion, asked of the real shells (issue 19, item 10).

Each shell loads the script `agents-md-compiler completion <shell>` prints, then
completes a command line: commands, each command's own options, an option's
choices and file names for PATH options, all read off the argument parser.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
AMC = str(BIN / "agents-md-compiler")


def _shell(argv: list[str], cwd: Path) -> str:
    if shutil.which(argv[0]) is None:
        pytest.fail(f"{argv[0]} is not installed (.ci/run installs it)", pytrace=False)
    env = {**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}"}
    done = subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


# The words of the line as the shell splits it; the last is the one being completed.
CASES = [
    (["ch"], ["check"]),
    (["ro"], ["rollback"]),
    (["--format", "json", "st"], ["status"]),
    (["install", "--re"], ["--replace-unmanaged"]),
    (["check", "--"], ["--format", "--help", "--lock", "--manifest", "--quiet", "--target"]),
    (["check", "--format", ""], ["json", "text"]),
    (["render", "--manifest", "ag"], ["agents-md.toml"]),
    (["install", "--expect-target-sha256", ""], []),
    (["completion", ""], ["--format", "--help", "--quiet", "bash", "fish", "zsh"]),
]

BASH = """
source <(agents-md-compiler completion bash)
COMP_WORDS=(agents-md-compiler "$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
_agents_md_compiler
printf '%s\\n' "${COMPREPLY[@]}"
"""

# What zsh's bashcompinit does on TAB: `compgen -F <function>` over the line's words.
# Its compgen does not filter by the typed word (compadd does, by prefix), so the
# test keeps the candidates that start with it, as compadd would.
ZSH = """
autoload -U compinit; compinit -u
eval "$(agents-md-compiler completion zsh)"
[[ $_comps[agents-md-compiler] == "_bash_complete -F _agents_md_compiler" ]] ||
    { print -u2 not registered; exit 1; }
COMP_WORDS=(agents-md-compiler "$@"); COMP_CWORD=$#
compgen -F _agents_md_compiler -- "${@[-1]}"
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "agents-md.toml").write_text("")
    (tmp_path / "modules").mkdir()
    return tmp_path


def _answers(out: str) -> list[str]:
    return sorted(line for line in out.splitlines() if line)


@pytest.mark.parametrize(("words", "expected"), CASES)
def test_bash(project: Path, words: list[str], expected: list[str]) -> None:
    assert _answers(_shell(["bash", "-c", BASH, "bash", *words], project)) == expected


@pytest.mark.parametrize(("words", "expected"), CASES)
def test_zsh(project: Path, words: list[str], expected: list[str]) -> None:
    answers = _answers(_shell(["zsh", "-f", "-c", ZSH, "zsh", *words], project))
    assert [answer for answer in answers if answer.startswith(words[-1])] == expected


@pytest.mark.parametrize(("words", "expected"), CASES)
def test_fish(project: Path, words: list[str], expected: list[str]) -> None:
    line = " ".join(["agents-md-compiler", *words])
    script = f"agents-md-compiler completion fish | source; complete -C {_fish_literal(line)}"
    out = _shell(["fish", "--no-config", "-c", script], project)
    answers = [entry.split("\t")[0] for entry in out.splitlines()]
    if not words[-1].startswith("-"):
        expected = [e for e in expected if not e.startswith("-")]  # fish hides options until -
    assert sorted(answers) == expected


def _fish_literal(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def test_an_unknown_shell_is_a_usage_error(tmp_path: Path) -> None:
    done = subprocess.run(
        [AMC, "completion", "tcsh"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert "argument shell: invalid choice: 'tcsh'" in done.stderr


def test_json_format_wraps_the_script_in_the_envelope(tmp_path: Path) -> None:
    text = subprocess.run(
        [AMC, "completion", "fish"], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout
    done = subprocess.run(
        [AMC, "--format", "json", "completion", "fish"],
        cwd=tmp_path, capture_output=True, text=True, check=True,
    )  # fmt: skip
    envelope = json.loads(done.stdout)
    assert envelope == {
        "command": "completion",
        "ok": True,
        "schema_version": 1,
        "state": None,
        "shell": "fish",
        "script": text,
    }
