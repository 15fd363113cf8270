"""Turn source specs into directories on disk, fetching distinct repositories in parallel."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from upskill.errors import UpskillError
from upskill.sources.local import Fetched, SourceNotFound, local_fetched
from upskill.sources.spec import SourceSpec
from upskill.world import World

if TYPE_CHECKING:  # the git machinery (subprocess, tarfile) loads only for git sources
    from upskill.sources.git import Checkout, GitCache, Runner

GITHUB_BASE_ENV = "UPSKILL_GITHUB_BASE"


@dataclass(frozen=True)
class Fetcher:
    """Seams: the world (cache dir, GitHub base) and the git runner."""

    world: World
    runner: Runner | None = None

    def fetch_all(
        self, specs: Iterable[SourceSpec], on_fetch: Callable[[SourceSpec], None] | None = None
    ) -> dict[SourceSpec, Fetched]:
        """Every source, or the first failure raised."""
        results = self.fetch_each(specs, on_fetch)
        for outcome in results.values():
            if isinstance(outcome, UpskillError):
                raise outcome
        return {spec: f for spec, f in results.items() if isinstance(f, Fetched)}

    def fetch_each(
        self, specs: Iterable[SourceSpec], on_fetch: Callable[[SourceSpec], None] | None = None
    ) -> dict[SourceSpec, Fetched | UpskillError]:
        """Fetch distinct sources (git ones in parallel threads); failures are returned."""
        unique = list(dict.fromkeys(specs))
        git_specs = [s for s in unique if s.is_git]
        cache = self._cache() if git_specs else None
        base = self.world.env.get(GITHUB_BASE_ENV, "https://github.com")

        def one(spec: SourceSpec) -> Fetched | UpskillError:
            try:
                if cache is None or not spec.is_git:
                    return local_fetched(spec)
                if on_fetch is not None:
                    on_fetch(spec)
                return git_fetched(spec, cache.checkout(spec.clone_url(base), spec.ref))
            except UpskillError as exc:
                return exc

        results = {s: one(s) for s in unique if not s.is_git}
        if git_specs:
            from concurrent.futures import ThreadPoolExecutor  # only git sources need threads

            # Same repository, different refs: serialised by the cache's own lock.
            with ThreadPoolExecutor(max_workers=min(8, len(git_specs))) as pool:
                results.update(zip(git_specs, pool.map(one, git_specs), strict=True))
        return {spec: results[spec] for spec in unique}

    def _cache(self) -> GitCache:
        from upskill.sources.git import GitCache, default_runner

        runner = (
            self.runner
            if self.runner is not None
            else default_runner(self.world.env, self.world.cwd)
        )
        return GitCache(self.world.cache_dir / "git", runner)


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


__all__ = ["Fetched", "Fetcher", "SourceNotFound", "git_fetched", "local_fetched"]
