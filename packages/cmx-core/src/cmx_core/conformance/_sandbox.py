"""A throwaway machine for one case: fixture home `/home/testuser` and project root
`project/` rebased under a temp dir, a fixed clock, and the path mapping back."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from cmx_core._environment import Environment, FixedClock, FixedHome, FixedWorkdir
from cmx_core._paths import Layout
from cmx_core._platforms import ALL_PLATFORMS, Scope
from cmx_core.conformance._manifest import FixtureError

FIXED_INSTANT = dt.datetime(2026, 7, 5, 12, 0, 0, tzinfo=dt.UTC)
HOME_IN_FIXTURE = "home/testuser"
PROJECT_IN_FIXTURE = "project"


@dataclass(frozen=True)
class Sandbox:
    root: Path

    @classmethod
    def create(cls, root: Path) -> Sandbox:
        (root / HOME_IN_FIXTURE).mkdir(parents=True)
        (root / PROJECT_IN_FIXTURE).mkdir()
        return cls(root)

    @property
    def env(self) -> Environment:
        return Environment(
            home=FixedHome(self.root / HOME_IN_FIXTURE),
            workdir=FixedWorkdir(self.root / PROJECT_IN_FIXTURE),
            clock=FixedClock(FIXED_INSTANT),
        )

    @property
    def layout(self) -> Layout:
        return Layout.resolve(self.env)

    def seed_tree(self, source: Path) -> None:
        """Copy the pre-state in; absolute fixture paths inside JSON files (config.json's
        `home`, sources.json's `path`) are rebased into the sandbox, never followed."""
        if not source.is_dir():
            return
        shutil.copytree(source, self.root, symlinks=True, dirs_exist_ok=True)
        for seeded in source.rglob("*.json"):
            copy = self.root / seeded.relative_to(source)
            copy.write_bytes(self.sandbox_bytes(copy.read_bytes()))
        config = self.layout.config_path
        if config.is_file():
            home = json.loads(config.read_text(encoding="utf-8")).get("home")
            if home is not None and not str(home).startswith(f"{self.root}/"):
                raise FixtureError(f"config.json home {home!r} would write outside the sandbox")

    def sandbox_bytes(self, data: bytes) -> bytes:
        return data.replace(
            b'"/' + HOME_IN_FIXTURE.encode(), f'"{self.root}/{HOME_IN_FIXTURE}'.encode()
        )

    def seed_locks(self, source: Path, scope: Scope) -> None:
        if not source.is_dir():
            return
        target = self.layout.lock_dir(scope)
        target.mkdir(parents=True, exist_ok=True)
        for item in sorted(source.iterdir()):
            shutil.copyfile(item, target / item.name)

    def lock_paths(self, scope: Scope) -> dict[str, Path]:
        layout = self.layout
        return {p.lockname: layout.lock_path(p, scope) for p in ALL_PLATFORMS}

    def fixture_path(self, path: Path) -> str:
        """Absolute fixture paths lose the sandbox prefix; project paths become relative."""
        project = self.root / PROJECT_IN_FIXTURE
        if path == project or project in path.parents:
            return path.relative_to(project).as_posix()
        if path == self.root or self.root in path.parents:
            return "/" + path.relative_to(self.root).as_posix()
        return path.as_posix()

    def unsandbox_bytes(self, data: bytes) -> bytes:
        """Paths written into files (sources.json) get the same mapping as reported paths."""
        return data.replace(str(self.root).encode("utf-8") + b"/", b"/")

    def snapshot(self, scope: Scope) -> dict[str, bytes]:
        excluded = set(self.lock_paths(scope).values())
        return {
            path.relative_to(self.root).as_posix(): self.unsandbox_bytes(path.read_bytes())
            for path in sorted(self.root.rglob("*"))
            if path.is_file() and path not in excluded
        }
