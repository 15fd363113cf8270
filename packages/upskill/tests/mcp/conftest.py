"""Fake client CLIs (`claude`, `copilot`, `code`, `opencode`) for MCP and plugin tests.

Each fake is a small Python script on PATH. It appends its argv and cwd as one
JSON line to `$FAKE_CLI_LOG`, keeps registered MCP servers/plugins in a JSON
state file under `$FAKE_CLI_STATE` (so `mcp list`, `plugin list`,
`--list-extensions` answer truthfully), and fails with exit 1 when its name is
in `$FAKE_CLI_FAIL` (comma-separated). A client is absent when the fixture is
asked not to put it on PATH.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from upskill_cli import black_boxed, run_upskill

from upskill.clientconf.places import Places

FAKE_SCRIPT = r"""
import json, os, sys
name = os.path.basename(sys.argv[0])
argv = sys.argv[1:]
with open(os.environ["FAKE_CLI_LOG"], "a", encoding="utf-8") as log:
    log.write(json.dumps({"cli": name, "argv": argv, "cwd": os.getcwd()}) + "\n")
if name in os.environ.get("FAKE_CLI_FAIL", "").split(","):
    sys.stderr.write(f"fake {name}: simulated failure\n")
    sys.exit(1)
state_path = os.path.join(os.environ["FAKE_CLI_STATE"], name + ".json")
try:
    with open(state_path, encoding="utf-8") as f:
        state = json.load(f)
except FileNotFoundError:
    state = {"mcp": [], "plugins": [], "marketplaces": []}

def save():
    with open(state_path, "w", encoding="utf-8") as f:
        json.dump(state, f)

def done(out=""):
    if out:
        sys.stdout.write(out + "\n")
    save()
    sys.exit(0)

def fail(msg):
    sys.stderr.write(msg + "\n")
    sys.exit(1)

if name == "code":
    if argv[:1] == ["--add-mcp"]:
        server = json.loads(argv[1])["name"]
        if server not in state["mcp"]:
            state["mcp"].append(server)
        done()
    if argv[:1] == ["--install-extension"]:
        state["plugins"].append(argv[1]); done()
    if argv[:1] == ["--uninstall-extension"]:
        if argv[1] not in state["plugins"]:
            fail(f"Extension '{argv[1]}' is not installed.")
        state["plugins"].remove(argv[1]); done()
    if argv[:1] == ["--list-extensions"]:
        done("\n".join(state["plugins"]))
    fail("fake code: unexpected arguments")
if argv[:2] == ["mcp", "add"]:
    rest = [a for a in argv[2:] if not a.startswith("-")]
    if "--transport" in argv:
        server = argv[argv.index("--transport") + 2]
    else:
        server = argv[2]
    if server in state["mcp"]:
        fail(f"MCP server {server} already exists in local config")
    state["mcp"].append(server); done(f"Added MCP server {server}")
if argv[:2] == ["mcp", "remove"]:
    if argv[2] not in state["mcp"]:
        fail(f"No MCP server found with name: {argv[2]}")
    state["mcp"].remove(argv[2]); done(f"Removed MCP server {argv[2]}")
if argv[:2] == ["mcp", "list"]:
    done("\n".join(f"{s}: fake-command - \u2713 Connected" for s in state["mcp"])
         or "No MCP servers configured.")
if argv[:3] == ["plugin", "marketplace", "add"]:
    state["marketplaces"].append(argv[-1]); done()
if argv[:2] == ["plugin", "install"]:
    state["plugins"].append(argv[2]); done(f"Installed {argv[2]}")
if argv[:2] in (["plugin", "uninstall"], ["plugin", "remove"]):
    if argv[2] not in state["plugins"]:
        fail(f"Plugin {argv[2]} is not installed")
    state["plugins"].remove(argv[2]); done()
if argv[:2] == ["plugin", "list"]:
    done("\n".join(state["plugins"]))
if name == "opencode" and argv[:1] == ["plugin"] and len(argv) in (2, 3):
    # as opencode 1.18.33: `plugin <module> [-g]` records it in a config file; there is
    # no `plugin list` or `plugin remove` (those would name a module "list"/"remove")
    if argv[1] in ("list", "remove"):
        fail(f"fake opencode: would install an npm package named {argv[1]!r}")
    if argv[2:] == ["-g"]:
        base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.environ["HOME"], ".config")
        config = os.path.join(base, "opencode", "opencode.json")
    else:
        config = os.path.join(os.getcwd(), ".opencode", "opencode.json")
    os.makedirs(os.path.dirname(config), exist_ok=True)
    data = json.load(open(config)) if os.path.exists(config) else {}
    data.setdefault("plugin", []).append(argv[1])
    with open(config, "w") as f:
        json.dump(data, f, indent=2)
    state["plugins"].append(argv[1]); done()
fail(f"fake {name}: unexpected arguments {argv}")
"""

ALL_CLIS = ("claude", "copilot", "code", "opencode")


@dataclass
class FakeClients:
    """Handle on the fakes: environment to run with, and what they recorded."""

    root: Path
    env: dict[str, str]

    def calls(self) -> list[dict[str, object]]:
        log = Path(self.env["FAKE_CLI_LOG"])
        if not log.exists():
            return []
        return [json.loads(line) for line in log.read_text().splitlines()]

    def argvs(self) -> list[list[str]]:
        return [[str(c["cli"]), *c["argv"]] for c in self.calls()]  # type: ignore[misc]

    def clear_log(self) -> None:
        Path(self.env["FAKE_CLI_LOG"]).write_text("")

    def state(self, cli: str) -> dict[str, list[str]]:
        path = Path(self.env["FAKE_CLI_STATE"]) / f"{cli}.json"
        if not path.exists():
            return {"mcp": [], "plugins": [], "marketplaces": []}
        return json.loads(path.read_text())  # type: ignore[no-any-return]

    def state_remove(self, cli: str, kind: str, value: str) -> None:
        """Simulate an out-of-band uninstall."""
        path = Path(self.env["FAKE_CLI_STATE"]) / f"{cli}.json"
        state = self.state(cli)
        state[kind].remove(value)
        path.write_text(json.dumps(state))

    def fail(self, *names: str) -> None:
        self.env["FAKE_CLI_FAIL"] = ",".join(names)

    def present(self, names: Iterable[str]) -> None:
        """Put exactly these fakes on PATH (the others are absent)."""
        dirs = [str(self.root / "bin" / n) for n in names]
        self.env["PATH"] = os.pathsep.join([*dirs, self.env["BASE_PATH"]])


@pytest.fixture
def fake_clients(tmp_path: Path) -> Callable[..., FakeClients]:
    def make(present: Iterable[str] = ALL_CLIS, fail: Iterable[str] = ()) -> FakeClients:
        root = tmp_path / "fakes"
        for cli in ALL_CLIS:
            folder = root / "bin" / cli
            folder.mkdir(parents=True, exist_ok=True)
            script = folder / cli
            script.write_text(f"#!{sys.executable}\n{FAKE_SCRIPT}")
            script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        (root / "state").mkdir(exist_ok=True)
        # Keep only directories that hold no real client, so "absent" means absent.
        base = os.pathsep.join(
            p
            for p in os.environ.get("PATH", "").split(os.pathsep)
            if p and not any((Path(p) / c).exists() for c in ALL_CLIS)
        )
        fakes = FakeClients(
            root,
            {
                "FAKE_CLI_LOG": str(root / "calls.jsonl"),
                "FAKE_CLI_STATE": str(root / "state"),
                "FAKE_CLI_FAIL": ",".join(fail),
                "BASE_PATH": base,
            },
        )
        fakes.present(present)
        return fakes

    return make


@dataclass
class Project:
    """A temp consumer project (a git repo, so project scope), a temp HOME and the fakes."""

    root: Path
    home: Path
    fakes: FakeClients
    black_box: bool = False  # the console script per call instead of in process

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "XDG_"))}
        env.update(self.fakes.env)
        env.update(
            HOME=str(self.home),
            XDG_CACHE_HOME=str(self.home / ".cache"),
            XDG_CONFIG_HOME=str(self.home / ".config"),
            NO_COLOR="1",
        )
        env.pop("DRAWIO_TOKEN", None)
        return env

    def run(self, *args: str, cwd: Path | None = None) -> Any:
        return run_upskill(args, cwd=cwd or self.root, env=self.env(), black_box=self.black_box)

    def lock(self, root: Path | None = None) -> Any:
        return json.loads(((root or self.root) / ".upskill-lock.json").read_text())


@pytest.fixture
def project(
    tmp_path: Path, fake_clients: Callable[..., FakeClients], request: pytest.FixtureRequest
) -> Project:
    root = tmp_path / "consumer"
    (root / ".git").mkdir(parents=True)
    home = tmp_path / "home"
    home.mkdir()
    return Project(root, home, fake_clients(), black_boxed(request))


@pytest.fixture
def places(tmp_path: Path) -> Places:
    root, home = tmp_path / "project", tmp_path / "home"
    root.mkdir()
    home.mkdir()
    return Places(root=root, home=home, config_home=home / ".config")
