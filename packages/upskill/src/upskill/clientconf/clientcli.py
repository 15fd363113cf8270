"""The seam through which upskill runs client CLIs (`claude`, `copilot`, `code`, `opencode`).

MCP servers and plugins are both configured by shelling out; a missing
executable is an expected state (warn-skip), not an error, so the runner
reports it as `None` instead of raising.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

# Client CLIs may touch the network (marketplace add); bound them anyway so a
# hung client can never hang an install.
_TIMEOUT_SECONDS = 300


@dataclass(frozen=True)
class CliResult:
    returncode: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    def message(self) -> str:
        """The client's own explanation, one line, for warnings."""
        text = (self.stderr.strip() or self.stdout.strip()).splitlines()
        return text[-1] if text else f"exit status {self.returncode}"


class ClientCli(Protocol):
    def run(self, argv: list[str], cwd: Path) -> CliResult | None:
        """Run argv; None when argv[0] is not installed."""
        ...


class SubprocessCli:
    """Runs the real executables found on PATH, without a shell."""

    def __init__(self, env: Mapping[str, str]) -> None:
        # The run's World environment, never the process's: an in-process run (tests,
        # embedders) must not hand the host's variables to a client CLI.
        self._env = dict(env)

    def run(self, argv: list[str], cwd: Path) -> CliResult | None:
        exe = shutil.which(argv[0], path=self._env.get("PATH"))
        if exe is None:
            return None
        try:
            done = subprocess.run(
                [exe, *argv[1:]],
                cwd=cwd,
                env=self._env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                errors="replace",
                timeout=_TIMEOUT_SECONDS,
                check=False,
            )
        except FileNotFoundError:
            return None
        except subprocess.TimeoutExpired:
            return CliResult(124, "", f"{argv[0]} timed out after {_TIMEOUT_SECONDS}s")
        except OSError as exc:
            return CliResult(126, "", f"{argv[0]}: {exc.strerror or exc}")
        return CliResult(done.returncode, done.stdout, done.stderr)
