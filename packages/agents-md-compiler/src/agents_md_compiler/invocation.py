"""Resolve the paths one invocation operates on (manifest discovery, lock, target)."""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from pathlib import Path

from agents_md_compiler.errors import UsageError
from agents_md_compiler.models import Manifest, PathPair
from agents_md_compiler.paths import DEFAULT_MANIFEST, LEGACY_MANIFEST, pair, state_root
from agents_md_compiler.seams import Seams


@dataclass(frozen=True)
class Invocation:
    args: argparse.Namespace
    seams: Seams

    def option(self, name: str) -> str | None:
        value = getattr(self.args, name, None)
        return value if isinstance(value, str) else None

    def resolve_option(self, name: str) -> PathPair | None:
        value = self.option(name)
        return None if value is None else pair(value, self.seams.cwd(), self.seams.environ)

    def manifest_path(self) -> PathPair:
        explicit = self.resolve_option("manifest")
        if explicit is not None:
            return explicit
        return discover_manifest(self.seams.cwd())

    def lock_path(self, manifest: PathPair) -> PathPair:
        explicit = self.resolve_option("lock")
        if explicit is not None:
            return explicit
        derived = manifest.resolved + ".lock.json"
        return PathPair(derived, derived)  # lexical: the derived path, as the reference records

    def target_path(self, manifest: Manifest) -> PathPair:
        explicit = self.resolve_option("target")
        if explicit is not None:
            return explicit
        return PathPair(manifest.default_target, manifest.default_target_resolved)

    def state_root(self) -> str:
        return state_root(self.seams.environ)


def discover_manifest(cwd: str) -> PathPair:
    """agents-md.toml; the legacy name only when it alone exists; both is ambiguous."""
    current = str(Path(cwd, DEFAULT_MANIFEST))
    legacy = str(Path(cwd, LEGACY_MANIFEST))
    has_current, has_legacy = os.path.lexists(current), os.path.lexists(legacy)
    if has_current and has_legacy:
        raise UsageError(
            f"both {DEFAULT_MANIFEST} and {LEGACY_MANIFEST} exist; pass --manifest explicitly"
        )
    chosen = legacy if has_legacy else current
    return PathPair(chosen, chosen)  # a discovered manifest's lexical form is its path
