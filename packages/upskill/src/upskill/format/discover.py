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

Plugin-marketplace manifests (`format/manifests.py`) add places to look: each
plugin directory they name (anywhere in the tree, depth counted from it) and
the skill paths they list. A plugin they name becomes a group of its items that
`add <source> <plugin>` installs, like a bundle, unless an item or a bundle
already has that name.
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
from upskill.format.manifests import Manifests, PluginRoot, read_manifests
from upskill.format.model import Bundle, BundleItems, Item, Kind
from upskill.format.names import name_problem

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
    `skipped` the name of each (an item directory's name, a bundle file's stem);
    `notes` what was wrong with the plugin manifests, which were then not used."""

    root: Path
    items: tuple[Item, ...]
    bundles: tuple[Bundle, ...]
    problems: tuple[FormatError, ...] = ()
    skipped: tuple[str, ...] = ()
    # Manifest problems (invalid JSON, a path leaving the tree): warnings, not errors.
    notes: tuple[FormatError, ...] = ()

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


@dataclass(frozen=True)
class SourceLayout:
    """Where a source keeps its items: every item directory, and for each plugin its
    manifests name, the item directories that belong to it."""

    directories: tuple[Path, ...]
    plugins: tuple[tuple[PluginRoot, tuple[Path, ...]], ...] = ()
    notes: tuple[FormatError, ...] = ()


def _plugin_dirs(plugin: PluginRoot) -> list[Path]:
    """A plugin's item directories: everything under it when no manifest lists its
    skills; else the skill paths listed (each an item directory or a tree of them), plus
    its own `skills/` when plugin.json listed them (a marketplace list is complete)."""
    if not plugin.skill_paths and not plugin.listed:
        return list(item_dirs(plugin.root))
    found = [d for place in plugin.skill_paths for d in item_dirs(place)]
    default = plugin.root / "skills"
    if not plugin.listed and default.is_dir() and not default.is_symlink():
        found += item_dirs(default)
    return found


def _entered(root: Path, path: Path) -> bool:
    """Whether discovery may look at `path`: no part of it is never entered."""
    return not any(part in NEVER_ENTERED for part in path.relative_to(root).parts)


def source_layout(root: Path) -> SourceLayout:
    """The item directories of `root`, from its layout and its plugin manifests."""
    if is_item_dir(root):
        return SourceLayout((root,))
    found = dict.fromkeys(item_dirs(root))
    manifests: Manifests = read_manifests(root)
    notes = list(manifests.notes)
    plugins: list[tuple[PluginRoot, tuple[Path, ...]]] = []
    for plugin in manifests.plugins:
        places = [plugin.root, *plugin.skill_paths]
        if not all(_entered(root, p) for p in places):
            notes.append(
                FormatError(
                    f"plugin {plugin.name!r} lies in a directory discovery never enters; ignored",
                    path=plugin.root,
                )
            )
            continue
        members = tuple(dict.fromkeys(_plugin_dirs(plugin)))
        found.update(dict.fromkeys(members))
        plugins.append((plugin, members))
    return SourceLayout(tuple(sorted(found)), tuple(plugins), tuple(notes))


def _plugin_groups(layout: SourceLayout, items: list[Item], bundles: list[Bundle]) -> list[Bundle]:
    """A bundle-like group per named plugin: its items, installed by its name. Names an
    item or bundle already has, or that are not valid names, make no group."""
    taken = {i.name for i in items} | {b.name for b in bundles}
    groups: list[Bundle] = []
    for plugin, members in layout.plugins:
        name = plugin.name
        if name is None or name in taken or name_problem(name) is not None:
            continue
        inside = set(members)
        mine = [i for i in items if i.directory in inside]
        if not mine:
            continue
        kinds = {k: tuple(i.name for i in mine if i.kind is k) for k in Kind}
        groups.append(
            Bundle(
                name=name,
                description=plugin.description,
                schema=1,
                path=plugin.root,
                items=BundleItems(kinds[Kind.RULE], kinds[Kind.SKILL], kinds[Kind.AGENT]),
            )
        )
        taken.add(name)
    return groups


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
    layout = source_layout(root)
    directories = list(layout.directories)
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
    bundles += _plugin_groups(layout, items, bundles)
    return Catalog(
        root, tuple(items), tuple(bundles), tuple(problems), tuple(skipped), layout.notes
    )
