"""Configured registries: keep each one's index rows in step with its head.

A git registry's head is `git ls-remote` of its ref (HEAD by default): cheap,
and it changes exactly when a re-fetch could change the index. A local
registry's head is a fingerprint of its entrypoints' paths, sizes and mtimes,
so an unchanged working tree is not rescanned. When the head cannot be read
(offline) the previous rows are used with a warning.
"""

from __future__ import annotations

import enum
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from upskill.errors import UpskillError
from upskill.search import scan
from upskill.search.store import IndexStore
from upskill.sources.git import Runner, default_runner
from upskill.sources.spec import SourceSpec, parse_source
from upskill.state.config import Registry
from upskill.world import World

_SHA = re.compile(r"^[0-9a-f]{40}([0-9a-f]{24})?$")


class Freshness(enum.StrEnum):
    FRESH = "fresh"  # head unchanged: rows reused
    REBUILT = "rebuilt"
    STALE = "stale"  # head unknown (offline): old rows used
    UNAVAILABLE = "unavailable"  # no head and no rows


@dataclass(frozen=True)
class Refresh:
    registry: str
    freshness: Freshness
    count: int
    warning: str | None = None

    @property
    def usable(self) -> bool:
        return self.freshness is not Freshness.UNAVAILABLE


@dataclass
class Refresher:
    """Seams: the world (where relative sources resolve, the environment), git, the clock."""

    store: IndexStore
    world: World
    runner: Runner | None = None
    clock: Callable[[], float] = time.time

    def _git(self) -> Runner:
        if self.runner is None:
            self.runner = default_runner(self.world.env, self.world.cwd)
        return self.runner

    def _remote_head(self, spec: SourceSpec) -> str:
        from upskill.sources.fetch import GITHUB_BASE_ENV

        url = spec.clone_url(self.world.env.get(GITHUB_BASE_ENV, "https://github.com"))
        if spec.ref and _SHA.match(spec.ref):
            return spec.ref
        done = self._git()(["ls-remote", "--", url, spec.ref or "HEAD"], None)
        if done.returncode != 0:
            lines = done.stderr.decode(errors="replace").strip().splitlines()
            raise UpskillError(f"git ls-remote failed: {lines[-1] if lines else done.returncode}")
        for line in done.stdout.decode(errors="replace").splitlines():
            sha = line.split("\t", 1)[0].strip()
            if _SHA.match(sha):
                return sha
        raise UpskillError(f"{url} has no ref {spec.ref or 'HEAD'}")

    def _root(self, spec: SourceSpec) -> Path:
        if not spec.is_git:
            root = Path(spec.location)
            if not root.is_dir():
                raise UpskillError("local registry directory does not exist", path=root)
            return root
        from upskill.sources.fetch import Fetcher

        fetched = Fetcher(self.world, self._git()).fetch_all([spec])
        return fetched[spec].root

    def refresh(self, registry: Registry, *, force: bool = False) -> Refresh:
        previous = self.store.state(registry.name)
        try:
            spec = parse_source(registry.source, cwd=self.world.cwd, home=self.world.home)
            if spec.is_git:
                head = self._remote_head(spec)
                root = None
            else:
                root = self._root(spec)
                head = scan.fingerprint(root)
            unchanged = previous and (previous.head, previous.source) == (head, registry.source)
            if unchanged and previous and not force:
                return Refresh(registry.name, Freshness.FRESH, previous.count)
            entries = scan.scan(root if root is not None else self._root(spec))
        except UpskillError as exc:
            if previous is None:
                return Refresh(
                    registry.name,
                    Freshness.UNAVAILABLE,
                    0,
                    f"registry {registry.name}: unavailable ({exc})",
                )
            return Refresh(
                registry.name,
                Freshness.STALE,
                previous.count,
                f"registry {registry.name}: using the cached index ({exc})",
            )
        commands = [f"upskill add {registry.source} {e.name}" for e in entries]
        stamp = str(int(self.clock()))
        self.store.replace(registry.name, registry.source, head, entries, commands, stamp)
        return Refresh(registry.name, Freshness.REBUILT, len(entries))
