"""A local stand-in for skills.sh, git registries over file://, and an isolated CLI env."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from upskill_cli import Ran, black_boxed, run_upskill
from upskill_testing import git, init_published


@dataclass
class FakeSkillsSh:
    url: str
    skills: list[dict[str, Any]] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    status: int = 200
    raw: bytes | None = None


@pytest.fixture
def skills_sh() -> Iterator[FakeSkillsSh]:
    state = FakeSkillsSh(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            state.requests.append(self.path)
            body = (
                state.raw
                if state.raw is not None
                else json.dumps({"skills": state.skills}).encode()
            )
            self.send_response(state.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()


def write_item(root: Path, rel: str, kind: str, description: str, body: str) -> None:
    folder = root / rel
    folder.mkdir(parents=True, exist_ok=True)
    entry = {"skill": "SKILL.md", "rule": "RULE.md", "agent": "AGENT.md"}[kind]
    name = folder.name
    (folder / entry).write_text(
        f"---\nschema: 1\nname: {name}\ndescription: {description}\n---\n\n{body}\n"
    )


@dataclass
class GitRegistry:
    """A working repo pushed to a bare repo at <base>/<owner>/<repo>.git."""

    work: Path
    bare: Path

    def publish(self, message: str) -> None:
        git(self.work, "add", "-A")
        git(self.work, "commit", "-q", "-m", message)
        git(self.work, "push", "-q", str(self.bare), "HEAD:refs/heads/main")


@pytest.fixture
def git_base(tmp_path: Path) -> Path:
    return tmp_path / "githost"


@pytest.fixture
def make_git_registry(tmp_path: Path, git_base: Path) -> Any:
    def make(owner_repo: str) -> GitRegistry:
        bare = git_base / f"{owner_repo}.git"
        work = tmp_path / "work" / owner_repo
        init_published(bare, work)
        return GitRegistry(work, bare)

    return make


@dataclass
class Cli:
    cwd: Path
    env: dict[str, str]
    black_box: bool = False  # the console script per call instead of in process

    def run(self, *args: str) -> Ran:
        return run_upskill(args, cwd=self.cwd, env=self.env, black_box=self.black_box)

    def config(self, text: str) -> None:
        path = self.cwd / ".upskill" / "config.yaml"
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)


@pytest.fixture
def cli(
    tmp_path: Path, git_base: Path, skills_sh: FakeSkillsSh, request: pytest.FixtureRequest
) -> Cli:
    home = tmp_path / "home"
    project = tmp_path / "project"
    home.mkdir()
    project.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "XDG_"))}
    env.update(
        HOME=str(home),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_CONFIG_HOME=str(home / ".config"),
        UPSKILL_REGISTRY_URL=skills_sh.url,
        UPSKILL_GITHUB_BASE=f"file://{git_base}",
        NO_PROXY="127.0.0.1",
        no_proxy="127.0.0.1",
        GIT_CONFIG_GLOBAL="/dev/null",
    )
    return Cli(project, env, black_boxed(request))


@pytest.fixture
def item_writer() -> Any:
    return write_item
