"""Run the system `git` safely, and keep a clone cache per repository.

Every call is an argument list with `--` before user-controlled values; the
environment is scrubbed of variables that would redirect git at another
repository; credentials are never added (git's own helpers apply). Each remote
gets one bare repository under the user cache dir; a later run fetches only
what changed, and each resolved commit is exported once into an immutable
tree directory that installs read from.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from upskill.errors import UpskillError
from upskill.filelock import FileLock

_SCRUBBED = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR")
_HEX = re.compile(r"^[0-9a-fA-F]{4,40}$")


class GitError(UpskillError):
    """git failed (clone, fetch, unknown ref)."""


Runner = Callable[[Sequence[str], Path | None], "subprocess.CompletedProcess[bytes]"]


def git_env(base: Mapping[str, str]) -> dict[str, str]:
    env = {k: v for k, v in base.items() if k not in _SCRUBBED}
    env["GIT_TERMINAL_PROMPT"] = "0"
    env.setdefault("LC_ALL", "C")
    return env


def default_runner(env: Mapping[str, str], cwd: Path | None = None) -> Runner:
    """The system git with the run's environment (`World.env`, scrubbed), in the directory a
    call names, else in `cwd` (the run's working directory, `World.cwd`), never the
    process's own when the run has its own world."""
    clean = git_env(env)

    def run(argv: Sequence[str], where: Path | None) -> subprocess.CompletedProcess[bytes]:
        try:
            return subprocess.run(
                ["git", *argv],
                cwd=where if where is not None else cwd,
                env=clean,
                capture_output=True,
                check=False,
            )
        except FileNotFoundError as exc:
            raise GitError("git is not installed (needed for git sources)") from exc

    return run


@dataclass(frozen=True)
class Checkout:
    tree: Path  # the exported tree of `commit` (repository root)
    commit: str


def cache_key(url: str) -> str:
    digest = hashlib.sha256(url.encode()).hexdigest()[:16]
    tail = re.sub(r"[^A-Za-z0-9._-]+", "-", url.rstrip("/").rsplit("/", 1)[-1])[:40]
    return f"{tail}-{digest}"


class GitCache:
    """One bare mirror per URL under `root`; exported trees per commit."""

    def __init__(self, root: Path, run: Runner) -> None:
        self.root = root
        self._run = run

    def checkout(self, url: str, ref: str | None) -> Checkout:
        repo = self.root / cache_key(url)
        repo.mkdir(parents=True, exist_ok=True)
        with FileLock(repo / ".upskill-cache.lock"):  # concurrent runs share the mirror
            bare = repo / "repo.git"
            if not (bare / "HEAD").exists():
                self._git(["init", "--quiet", "--bare", str(bare)], None, url)
            try:
                self._fetch(bare, url)
            except GitError:
                if self._healthy(bare):
                    raise  # the remote's failure (offline, gone): the mirror stays
                # a corrupted mirror is rebuilt once, not failed on forever
                shutil.rmtree(bare)
                self._git(["init", "--quiet", "--bare", str(bare)], None, url)
                self._fetch(bare, url)
            commit = self._resolve(bare, url, ref)
            tree = repo / "trees" / commit
            if not tree.is_dir():
                self._export(bare, commit, tree, url)
        return Checkout(tree, commit)

    def _healthy(self, bare: Path) -> bool:
        """Whether git still recognises the cached mirror as a bare repository."""
        out = self._run(["rev-parse", "--is-bare-repository"], bare)
        return out.returncode == 0 and out.stdout.strip() == b"true"

    def _fetch(self, bare: Path, url: str) -> None:
        self._git(
            [
                "fetch",
                "--quiet",
                "--prune",
                "--no-tags",
                "--",
                url,
                "+HEAD:refs/upskill/head",
                "+refs/heads/*:refs/heads/*",
                "+refs/tags/*:refs/tags/*",
            ],
            bare,
            url,
        )

    def _resolve(self, bare: Path, url: str, ref: str | None) -> str:
        candidates = (
            ["refs/upskill/head"]
            if ref is None
            else [f"refs/tags/{ref}", f"refs/heads/{ref}"] + ([ref] if _HEX.match(ref) else [])
        )
        for candidate in candidates:
            out = self._run(
                ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{candidate}^{{commit}}"],
                bare,
            )
            if out.returncode == 0:
                return out.stdout.decode().strip()
        raise GitError(f"{url}: no branch, tag or commit named {ref!r}")

    def _export(self, bare: Path, commit: str, tree: Path, url: str) -> None:
        tree.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".export-", dir=tree.parent))
        try:
            archive = staging / "tree.tar"
            out = self._git(["archive", "--format=tar", f"--output={archive}", commit], bare, url)
            del out
            dest = staging / "t"
            dest.mkdir()
            try:
                with tarfile.open(archive) as tar:
                    tar.extractall(dest, filter=_inside_only)  # noqa: S202 (filtered)
            except (tarfile.TarError, OSError) as exc:
                raise GitError(f"{url}: cannot unpack {commit[:12]}: {exc}") from exc
            dest.rename(tree)
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    def _git(
        self, argv: list[str], cwd: Path | None, url: str
    ) -> subprocess.CompletedProcess[bytes]:
        out = self._run(argv, cwd)
        if out.returncode != 0:
            raise GitError(f"{url}: git {argv[0]} failed: {_explain(out)}")
        return out


def _explain(out: subprocess.CompletedProcess[bytes]) -> str:
    """All of git's stderr on one line (its last line alone is often "and the repository
    exists."), bounded: a remote can send a lot."""
    lines = [ln.strip() for ln in out.stderr.decode(errors="replace").splitlines() if ln.strip()]
    text = "; ".join(lines) or f"exit {out.returncode}"
    return text if len(text) <= 1000 else text[:1000] + "…"


def _inside_only(member: tarfile.TarInfo, dest: str) -> tarfile.TarInfo | None:
    """tar's `data` filter, except that a member it refuses (a symlink or hard link
    leaving the tree, an absolute path) is skipped instead of failing the fetch:
    items never use symlinks, and nothing outside the tree may be written."""
    try:
        return tarfile.data_filter(member, dest)
    except tarfile.FilterError:
        return None
