"""Discover the items and bundles of a source tree ("Upskill conventions").

Items: the root itself when it is an item directory (a single-skill
repository); otherwise item directories up to depth 4, without descending into
an item: `<root>/<item>/`, `<root>/skills/<item>/`, category trees
(`skills/<category>/<item>/`) and Claude plugin marketplaces
(`plugins/<plugin>/skills/<item>/`). Hidden directories are entered only where
published collections keep items: `.claude/` and `.agents/` (their `skills/`,
`rules/`, `agents/`), and hidden categories inside a `skills/` directory
(`skills/.curated/`, `skills/.system/`). VCS metadata, `node_modules` and
vendored or virtual-environment trees are never entered. Bundles:
`*.bundle.yaml` at any depth outside hidden directories. Two items with the same
(kind, effective name) are an error naming both paths: they would collide in
every client tree.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from upskill.blobs import payload_size
from upskill.errors import FormatError
from upskill.format import resources
from upskill.format.bundles import BUNDLE_SUFFIX, is_discoverable_bundle, load_bundle
from upskill.format.forked import two_process_map
from upskill.format.items import is_item_dir, load_item_dir
from upskill.format.model import Bundle, Item, Kind

ITEM_SCAN_DEPTH = 4
# Hidden directories that hold items in published collections (docs/upskill/format.md).
HIDDEN_ITEM_HOMES = frozenset({".claude", ".agents"})
# Never entered: version control metadata and other projects' files, however deep.
NEVER_ENTERED = frozenset(
    {".git", ".hg", ".svn", ".venv", "venv", "node_modules", "vendor", "third_party"}
    | {"site-packages", "__pycache__"}
)
# From this many item directories on, half are parsed in a forked child.
PARALLEL_ITEM_DIRS = 128
_T = TypeVar("_T")


@dataclass(frozen=True)
class Catalog:
    """`problems` holds what `discover(..., strict=False)` skipped, in path order, and
    `skipped` the name of each (an item directory's name, a bundle file's stem)."""

    root: Path
    items: tuple[Item, ...]
    bundles: tuple[Bundle, ...]
    problems: tuple[FormatError, ...] = ()
    skipped: tuple[str, ...] = ()

    def item(self, kind: Kind, name: str) -> Item | None:
        for item in self.items:
            if item.kind is kind and item.name == name:
                return item
        return None

    def named(self, name: str) -> tuple[Item, ...]:
        """Items whose effective name or directory (group) is `name`."""
        return tuple(i for i in self.items if name in (i.name, i.group))

    def bundle(self, name: str) -> Bundle | None:
        for bundle in self.bundles:
            if bundle.name == name:
                return bundle
        return None


def _visible_dirs(directory: Path) -> list[Path]:
    """Enterable real (not symlinked) subdirectories, in path order, from one scandir.

    Entry types come from the listing; only the first entry is stat'ed, as the
    per-entry `is_dir()` did first, so a listable but unsearchable directory
    fails the same way.
    """
    try:
        with os.scandir(directory) as it:
            listed = sorted(((directory / e.name, e) for e in it), key=lambda pair: pair[0])
    except OSError as exc:
        raise FormatError(f"cannot list directory: {exc.strerror}", path=directory) from None
    if listed:
        listed[0][0].is_dir()
    return [
        path
        for path, entry in listed
        if entry.is_dir(follow_symlinks=False) and _enterable(directory, entry.name)
    ]


def _enterable(parent: Path, name: str) -> bool:
    if name in NEVER_ENTERED:
        return False
    if not name.startswith("."):
        return True
    return name in HIDDEN_ITEM_HOMES or parent.name == "skills"


def item_dirs(root: Path) -> Iterator[Path]:
    if is_item_dir(root):
        yield root
        return
    frontier = [root]
    for _ in range(ITEM_SCAN_DEPTH):
        next_frontier: list[Path] = []
        for directory in frontier:
            for child in _visible_dirs(directory):
                if is_item_dir(child):
                    yield child
                else:
                    next_frontier.append(child)
        frontier = next_frontier


def bundle_files(root: Path) -> Iterator[Path]:
    for current, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith(BUNDLE_SUFFIX) and not name.startswith("."):
                path = Path(current) / name
                if not path.is_symlink():
                    yield path


def discover(root: Path, *, strict: bool = True) -> Catalog:
    """Load every item and bundle under `root`.

    Strict (the default) raises the first FormatError. Non-strict skips each
    broken item directory or bundle and records its error in
    `Catalog.problems`, so one bad item does not block installing the others.
    Duplicate identities are errors in both modes.
    """
    if not root.is_dir():
        raise FormatError("source root is not a directory", path=root)
    problems: list[FormatError] = []
    skipped: list[str] = []

    def attempt(load: Callable[[], _T], name: str) -> _T | None:
        try:
            return load()
        except FormatError as exc:
            if strict:
                raise
            problems.append(exc)
            skipped.append(name)
            return None

    items: list[Item] = []
    seen: dict[tuple[Kind, str], Path] = {}
    total = 0
    directories = sorted(item_dirs(root))
    ready = two_process_map(load_item_dir, directories, min_inputs=PARALLEL_ITEM_DIRS)
    for directory, loaded in zip(directories, ready, strict=True):
        if loaded is None:  # not loaded ahead, or failed: load here, errors in order
            standalone = directory == root  # a single-skill repository: its name is the cache's
            load = functools.partial(load_item_dir, directory, standalone=standalone)
            loaded = attempt(load, directory.name)
        for item in loaded or ():
            other = seen.get(item.identity)
            if other is not None:
                raise FormatError(
                    f"duplicate {item.kind.value} {item.name!r} (also defined in {other})",
                    path=item.entrypoint,
                )
            seen[item.identity] = item.entrypoint
            items.append(item)
            total += sum(payload_size(r.data) for r in item.resources)
            if total > resources.MAX_SOURCE_RESOURCE_BYTES:
                raise FormatError(
                    "the source's resources exceed "
                    f"{resources.MAX_SOURCE_RESOURCE_BYTES} bytes in total",
                    path=root,
                )
    bundles: list[Bundle] = []
    names: dict[str, Path] = {}
    for path in bundle_files(root):
        if not is_discoverable_bundle(path):
            continue
        bundle = attempt(functools.partial(load_bundle, path), path.name[: -len(BUNDLE_SUFFIX)])
        if bundle is None:
            continue
        if bundle.name in names:
            raise FormatError(
                f"duplicate bundle {bundle.name!r} (also defined in {names[bundle.name]})",
                path=path,
            )
        names[bundle.name] = path
        bundles.append(bundle)
    return Catalog(root, tuple(items), tuple(bundles), tuple(problems), tuple(skipped))
