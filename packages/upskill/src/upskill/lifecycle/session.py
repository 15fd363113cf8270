"""Shared setup for lifecycle commands: scope, lockfile, fetching and catalogs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from upskill.errors import UpskillError
from upskill.fsio import read_contained
from upskill.lifecycle.catalog import SourceCatalog, load_catalog
from upskill.lifecycle.confine import check_paths, check_records
from upskill.lifecycle.fastpath import fingerprint_of
from upskill.lifecycle.fsops import FAULTS
from upskill.lifecycle.journal import recover
from upskill.lifecycle.scope import Scope, ScopeKind
from upskill.sources.fetch import Fetched, Fetcher
from upskill.sources.spec import SourceSpec
from upskill.state.lockfile import Lockfile, parse_lockfile, read_lockfile
from upskill.world import World


@dataclass
class Session:
    world: World
    scope: Scope
    on_fetch: Callable[[SourceSpec], None] | None = None
    strict: bool = False  # `--strict`: one invalid item fails the whole source
    _fetched: dict[SourceSpec, Fetched] = field(default_factory=dict)
    _catalogs: dict[SourceSpec, SourceCatalog] = field(default_factory=dict)
    fingerprints: dict[str, str] = field(default_factory=dict)  # label -> fast-path fingerprint
    _failed: dict[SourceSpec, UpskillError] = field(default_factory=dict)
    _lock_cache: tuple[bytes, Lockfile] | None = None

    def __post_init__(self) -> None:
        FAULTS.arm(self.world.env)  # the run's fault-injection seam, from its own environment

    @property
    def fetcher(self) -> Fetcher:
        return Fetcher(self.world)

    def prefetch(self, specs: list[SourceSpec]) -> dict[SourceSpec, UpskillError]:
        """Fetch distinct sources in parallel before resolution needs them.

        Returns the sources that could not be fetched (a later `catalog` raises)."""
        wanted = list(dict.fromkeys(specs))
        todo = [s for s in wanted if s not in self._fetched and s not in self._failed]
        for spec, outcome in self.fetcher.fetch_each(todo, self.on_fetch).items():
            if isinstance(outcome, UpskillError):
                self._failed[spec] = outcome
                continue
            # Taken before reading the tree: a change during this run is seen next time.
            self.fingerprints[spec.label] = fingerprint_of(outcome)
            self._fetched[spec] = outcome
        return {s: self._failed[s] for s in wanted if s in self._failed}

    def catalog(self, spec: SourceSpec) -> SourceCatalog:
        found = self._catalogs.get(spec)
        if found is None:
            failed = self.prefetch([spec])
            if spec in failed:
                raise failed[spec]
            found = load_catalog(self._fetched[spec], strict=self.strict)
            self._catalogs[spec] = found
        return found

    def recover(self) -> bool:
        return recover(self.scope.root, self.scope.lockfile, state=self.scope.state)

    def read_lock(self) -> Lockfile:
        """The lockfile as on disk now; parsed again only when its bytes changed (update reads
        it before fetching and again under the scope lock)."""
        try:
            data = read_contained(self.scope.lockfile, within=self.scope.root)
        except OSError:
            return read_lockfile(self.scope.lockfile)  # its error names the file
        if data is None:
            return Lockfile()
        if self._lock_cache is None or self._lock_cache[0] != data:
            lock = parse_lockfile(data, self.scope.lockfile)
            # a lockfile is data a repository carries: its outputs are not ours until confined
            check_paths((o.path for o in lock.outputs), self.scope.lockfile, "`outputs` entry")
            check_records(lock, self.scope.lockfile, project=self.scope.kind is ScopeKind.PROJECT)
            self._lock_cache = (data, lock)
        return self._lock_cache[1]
