"""Turn source specs into directories on disk, fetching distinct repositories in parallel."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from upskill.errors import UpskillError
from upskill.sources.git import Checkout, GitCache, Runner, default_runner
from upskill.sources.spec import SourceSpec

GITHUB_BASE_ENV = "UPSKILL_GITHUB_BASE"


class SourceNotFound(UpskillError):
    """A local source path does not exist or a subpath is missing in a checkout."""


@dataclass(frozen=True)
class Fetched:
    """A source made concrete: `root` is where items are discovered."""

    spec: SourceSpec
    root: Path
    bundle_file: Path | None
    commit: str | None


def cache_dir(env: Mapping[str, str], home: Path) -> Path:
    base = env.get("XDG_CACHE_HOME") or str(home / ".cache")
    return Path(base) / "upskill"


@dataclass(frozen=True)
class Fetcher:
    """Seams: environment (cache dir, GitHub base) and the git runner."""

    env: Mapping[str, str]
    home: Path
    runner: Runner | None = None

    def fetch_all(
        self, specs: Iterable[SourceSpec], on_fetch: Callable[[SourceSpec], None] | None = None
    ) -> dict[SourceSpec, Fetched]:
        unique = list(dict.fromkeys(specs))
        if not unique:
            return {}
        git_specs = [s for s in unique if s.is_git]
        results: dict[SourceSpec, Fetched] = {}
        for spec in unique:
            if not spec.is_git:
                results[spec] = local_fetched(spec)
        if git_specs:
            cache = GitCache(cache_dir(self.env, self.home) / "git", self._runner())
            base = self.env.get(GITHUB_BASE_ENV, "https://github.com")

            def one(spec: SourceSpec) -> Fetched:
                if on_fetch is not None:
                    on_fetch(spec)
                return git_fetched(spec, cache.checkout(spec.clone_url(base), spec.ref))

            # Same repository, different refs: serialised by the cache's own lock.
            workers = min(8, len(git_specs))
            with ThreadPoolExecutor(max_workers=workers) as pool:
                for spec, fetched in zip(git_specs, pool.map(one, git_specs), strict=True):
                    results[spec] = fetched
        return {spec: results[spec] for spec in unique}

    def _runner(self) -> Runner:
        return self.runner if self.runner is not None else default_runner(self.env)


def git_fetched(spec: SourceSpec, checkout: Checkout) -> Fetched:
    target = checkout.tree / spec.subpath if spec.subpath else checkout.tree
    if not target.exists() or target.is_symlink():
        raise SourceNotFound(
            f"{spec.label}: path {spec.subpath!r} not found at {checkout.commit[:12]}"
        )
    if spec.bundle_path is not None:
        return Fetched(spec, checkout.tree, target, checkout.commit)
    if not target.is_dir():
        raise SourceNotFound(f"{spec.label}: {spec.subpath!r} is neither a directory nor a bundle")
    return Fetched(spec, target, None, checkout.commit)


def local_fetched(spec: SourceSpec) -> Fetched:
    path = Path(spec.location)
    if spec.bundle_path is not None:
        if not path.is_file():
            raise SourceNotFound(f"{spec.label}: bundle file not found", path=path)
        return Fetched(spec, _registry_root(path), path, None)
    if not path.is_dir():
        raise SourceNotFound("local source not found (or not a directory)", path=path)
    return Fetched(spec, path, None, None)


def _registry_root(bundle: Path) -> Path:
    """Items a local bundle names live in the same registry: its git root, else its folder."""
    for parent in bundle.parents:
        if (parent / ".git").exists():
            return parent
        if parent == Path(os.sep):
            break
    folder = bundle.parent
    return folder.parent if folder.name == "bundles" else folder
