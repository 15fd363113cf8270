"""Fixtures for end-to-end tests of the CLI: isolated HOME/XDG dirs, registries, git repos.

A plain module on pytest's `pythonpath` (conftest files cannot be imported under importlib
mode): the `conftest.py` of each test directory that runs the real CLI re-exports these
fixtures (`lifecycle/`, `hostile/`).

`cli` runs each command in process, through `upskill.cli.main` with the run's own
`World` (cwd, HOME, environment) and streams: the code path of the console script
without the cost of starting an interpreter per call. A test that needs a real
process (fault injection's SIGKILL, locks held across processes, signals, start-up)
is marked `black_box`, and its `cli` then spawns the console script instead; the
`black_box` fixture does the same unconditionally, and so does any call that arms
`UPSKILL_FAULT_AFTER_WRITES` (its SIGKILL needs a process of its own)."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from upskill_testing import GIT_ENV, git, init_published

UPSKILL = str(Path(sys.executable).parent / "upskill")


def frontmatter(fields: dict[str, object]) -> str:
    lines = []
    for key, value in fields.items():
        if isinstance(value, list):
            lines.append(f"{key}:")
            lines += [f"  - {v}" for v in value]
        elif isinstance(value, dict):
            lines.append(f"{key}:")
            for k, v in value.items():
                if isinstance(v, list):
                    lines.append(f"  {k}:")
                    lines += [f"    - {x}" for x in v]
                else:
                    lines.append(f"  {k}: {v}")
        else:
            lines.append(f"{key}: {value}")
    return "---\n" + "\n".join(lines) + "\n---\n"


def write_item(root: Path, kind: str, name: str, body: str = "", **fields: object) -> Path:
    """Write `<root>/skills/<name>/<KIND>.md` with a minimal valid frontmatter."""
    directory = root / "skills" / name
    directory.mkdir(parents=True, exist_ok=True)
    meta: dict[str, object] = {"schema": 1, "description": f"Use when testing {name}"}
    if kind == "agent":
        meta.update({"mode": "subagent", "model": "sonnet", "tools": ["read", "bash"]})
    meta.update({k.replace("_", "-"): v for k, v in fields.items()})
    text = frontmatter(meta) + "\n" + (body or f"Guidance for {name}.\n")
    path = directory / f"{kind.upper()}.md"
    path.write_text(text)
    return path


def write_bundle(root: Path, name: str, text: str) -> Path:
    path = root / "skills" / f"{name}.bundle.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@dataclass
class GitSource:
    """A working tree plus the bare repository it pushes to (served over file://)."""

    work: Path
    bare: Path

    @property
    def url(self) -> str:
        return f"file://{self.bare}"

    def commit(self, message: str = "change") -> str:
        git(self.work, "add", "-A")
        git(self.work, "commit", "-q", "-m", message)
        git(self.work, "push", "-q", "origin", "HEAD:main", "--tags")
        return git(self.work, "rev-parse", "HEAD")

    def tag(self, name: str) -> None:
        git(self.work, "tag", name)
        git(self.work, "push", "-q", "origin", name)


@pytest.fixture
def make_git_source(tmp_path: Path):  # type: ignore[no-untyped-def]
    def make(owner_repo: str = "acme/skills") -> GitSource:
        bare = tmp_path / "github" / f"{owner_repo}.git"
        work = tmp_path / "work" / owner_repo
        init_published(bare, work)
        git(work, "remote", "add", "origin", str(bare))
        return GitSource(work, bare)

    return make


FAULT_ENV = "UPSKILL_FAULT_AFTER_WRITES"


@dataclass(frozen=True)
class Ran:
    """What a run left: the shape of `subprocess.CompletedProcess` the tests read."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str


def run_upskill(
    args: Sequence[str],
    *,
    cwd: Path,
    env: dict[str, str],
    input: str | None = None,
    black_box: bool = False,
) -> Ran:
    """`upskill <args>` in `cwd` with exactly `env`: in process (`upskill.cli.main` with the
    run's World and streams), or the console script when `black_box` or when the call arms
    the fault seam, which SIGKILLs the process it runs in (in process, that is pytest)."""
    if black_box or FAULT_ENV in env:
        done = subprocess.run(
            [UPSKILL, *args],
            cwd=cwd,
            env=env,
            input=input if input is not None else "",
            capture_output=True,
            text=True,
            timeout=120,
        )
        return Ran(done.args, done.returncode, done.stdout, done.stderr)
    from upskill.cli import main
    from upskill.world import World

    out, err = io.StringIO(), io.StringIO()
    world = World(cwd, Path(env["HOME"]), env)
    code = main(list(args), world=world, stdin=io.StringIO(input or ""), stdout=out, stderr=err)
    return Ran([UPSKILL, *args], code, out.getvalue(), err.getvalue())


def black_boxed(request: pytest.FixtureRequest) -> bool:
    """Whether the requesting test is marked `black_box` (its CLI calls spawn processes)."""
    return request.node.get_closest_marker("black_box") is not None


@dataclass
class Cli:
    home: Path
    env: dict[str, str]
    black_box: bool = False  # spawn the console script per call instead of running in process

    def run(
        self, *args: str, cwd: Path, input: str | None = None, extra: dict[str, str] | None = None
    ) -> Ran:
        env = {**self.env, **(extra or {})}
        return run_upskill(args, cwd=cwd, env=env, input=input, black_box=self.black_box)

    def journal(self, root: Path) -> Path:
        """Where a run in `root` keeps its journal (in this HOME's state directory)."""
        from upskill.lifecycle.scope import journal_home
        from upskill.world import World

        return journal_home(World(root, self.home, self.env), root) / "journal.json"

    def ok(self, *args: str, cwd: Path, **kw: object) -> Ran:
        out = self.run(*args, cwd=cwd, **kw)  # type: ignore[arg-type]
        assert out.returncode == 0, f"upskill {' '.join(args)} -> {out.returncode}\n{out.stderr}"
        return out


@pytest.fixture
def cli(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Cli]:
    """The CLI in a fresh HOME: in process, or the console script for a `black_box` test."""
    yield _cli(tmp_path, black_box=black_boxed(request))


@pytest.fixture
def black_box(tmp_path: Path) -> Iterator[Cli]:
    """The CLI as the real console script, one process per call."""
    yield _cli(tmp_path, black_box=True)


def _cli(tmp_path: Path, *, black_box: bool) -> Cli:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "UPSKILL_GITHUB_BASE": f"file://{tmp_path / 'github'}",
        "UPSKILL_LOCK_TIMEOUT": "60",
        "LC_ALL": "C.UTF-8",
        **GIT_ENV,
    }
    return Cli(home, env, black_box)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "project"
    path.mkdir()
    (path / ".git").mkdir()  # enough for scope detection
    return path


@pytest.fixture
def registry(tmp_path: Path) -> Path:
    """A local source: two rules, a skill with a resource, an agent preloading it."""
    root = tmp_path / "registry"
    write_item(root, "rule", "style", "Use four spaces.\n")
    write_item(root, "rule", "commits", "Write imperative subjects.\n")
    write_item(root, "skill", "review", "Follow [the checklist](references/list.md).\n")
    (root / "skills" / "review" / "references").mkdir()
    (root / "skills" / "review" / "references" / "list.md").write_text("# List\n\n- one\n")
    write_item(root, "agent", "reviewer", "You review code.\n", preload_skills=["review"])
    return root


def snapshot(root: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file and directory under root: bytes, mtime_ns, mode (for write-nothing checks)."""
    seen: dict[str, tuple[bytes, int, int]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            full = Path(dirpath) / name
            st = full.lstat()
            data = full.read_bytes() if full.is_file() and not full.is_symlink() else b""
            seen[str(full.relative_to(root))] = (data, st.st_mtime_ns, st.st_mode)
    return seen


def files(root: Path) -> list[str]:
    return sorted(
        str(p.relative_to(root))
        for p in root.rglob("*")
        if p.is_file() and ".git" not in p.relative_to(root).parts
    )


@dataclass(frozen=True)
class Helpers:
    write_item = staticmethod(write_item)
    write_bundle = staticmethod(write_bundle)
    snapshot = staticmethod(snapshot)
    files = staticmethod(files)
    git = staticmethod(git)
    copytree = staticmethod(shutil.copytree)


@pytest.fixture
def h() -> Helpers:
    """Helper functions (test modules cannot import conftest under importlib mode)."""
    return Helpers()
