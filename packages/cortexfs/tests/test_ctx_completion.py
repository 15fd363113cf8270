"""`ctx completion`: the real bash completes ctx's commands (issue 19, 10); no mount needed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = """
source <(ctx completion bash)
COMP_LINE="ctx sta"; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(ctx sta); COMP_CWORD=1
_python_argcomplete ctx sta ctx
printf '%s\\n' "${COMPREPLY[@]}"
"""


def test_bash_completes_ctx_commands() -> None:
    if shutil.which("bash") is None:
        pytest.fail("bash is not installed", pytrace=False)
    path = f"{Path(sys.executable).parent}:{os.environ['PATH']}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("CTX_")} | {"PATH": path}
    done = subprocess.run(
        ["bash", "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert [w.strip() for w in done.stdout.splitlines()] == ["status"]
