"""Local sources: a directory, or a bundle file inside a registry (no git, import-light)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from upskill.errors import UpskillError
from upskill.sources.spec import SourceSpec


class SourceNotFound(UpskillError):
    """A local source path does not exist or a subpath is missing in a checkout."""


@dataclass(frozen=True)
class Fetched:
    """A source made concrete: `root` is where items are discovered."""

    spec: SourceSpec
    root: Path
    bundle_file: Path | None
    commit: str | None


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
