"""The one place lifecycle code touches the portable-format API.

Everything the resolver needs from an item or bundle is read here, so a change
in the format model is a one-file fix.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from upskill.clients.base import KIND_NAMES
from upskill.errors import FormatError
from upskill.format.model import Bundle, Item, Kind
from upskill.sources.fetch import Fetched
from upskill.sources.spec import SourceKind


@dataclass(frozen=True)
class SourceCatalog:
    fetched: Fetched
    items: dict[tuple[str, str], Item] = field(default_factory=dict)
    bundles: dict[str, Bundle] = field(default_factory=dict)
    # Item directories and bundles left out for breaking a rule, located `<label>:<path>`,
    # and by name (directory name, bundle file stem) for a request that names one.
    problems: tuple[FormatError, ...] = ()
    skipped: dict[str, FormatError] = field(default_factory=dict)
    # What was wrong with its plugin manifests (warnings; discovery went on without them).
    notes: tuple[FormatError, ...] = ()

    @property
    def label(self) -> str:
        return self.fetched.spec.label

    def items_named(self, name: str) -> list[Item]:
        return [self.items[(k, name)] for k in KIND_NAMES if (k, name) in self.items]


def load_catalog(fetched: Fetched, *, strict: bool = False) -> SourceCatalog:
    """Every valid item and bundle of a source. One broken item does not block the others
    (published collections hold a few): it is left out and kept in `problems`; `strict`
    (`--strict`) makes it an error instead. Errors name files `<label>:<path>`, not
    by their place in upskill's git cache."""
    from upskill.format import discover

    try:
        found = discover(fetched.root, strict=strict)
    except FormatError as exc:
        raise located(exc, fetched) from None
    items = {(str(i.kind), i.name): i for i in found.items}
    bundles = {b.name: b for b in found.bundles}
    problems = tuple(located(p, fetched) for p in found.problems)
    skipped = dict(zip(found.skipped, problems, strict=True))
    notes = tuple(located(n, fetched) for n in found.notes)
    return SourceCatalog(fetched, items, bundles, problems, skipped, notes)


def located(error: FormatError, fetched: Fetched) -> FormatError:
    """The error with its path shown as `source_path` shows it."""
    shown = source_path(error.path, fetched) if error.path is not None else None
    return error if shown is None else FormatError(error.message, path=shown, line=error.line)


def source_path(path: Path, fetched: Fetched) -> str | None:
    """`<source label>:<path in the source>` for a git source's file (its files live in
    upskill's cache); None for a local source, whose paths are the user's own."""
    if fetched.spec.kind is SourceKind.LOCAL:
        return None
    if path == fetched.bundle_file:
        return fetched.spec.label  # the label names the bundle file already
    try:
        return f"{fetched.spec.label}:{path.relative_to(fetched.root).as_posix()}"
    except ValueError:
        return None


def problem_for(catalog: SourceCatalog, name: str) -> FormatError | None:
    """The problem that left out an item directory or a bundle called `name`, if one did."""
    return catalog.skipped.get(name)


def where(path: Path, catalog: SourceCatalog) -> Path | str:
    """How a message names a file of the catalog's source: `<label>:<path>` for a git
    source (never its place in upskill's cache), the path itself for a local one."""
    return source_path(path, catalog.fetched) or path


def load_bundle_file(fetched: Fetched) -> Bundle:
    """The bundle file a source names; its errors located as `located` locates them."""
    from upskill.format import load_bundle

    assert fetched.bundle_file is not None
    try:
        return load_bundle(fetched.bundle_file)
    except FormatError as exc:
        raise located(exc, fetched) from None


def kind_of(item: Item) -> str:
    return str(item.kind)


def requirements(item: Item) -> Iterator[tuple[str, str, str | None]]:
    """(kind, name, source-or-None) for each `requires.<kind>` entry."""
    for kind in (Kind.RULE, Kind.SKILL, Kind.AGENT):
        for req in item.requires.of(kind):
            yield str(kind), req.name, req.source


def preload_skills(item: Item) -> tuple[str, ...]:
    return tuple(getattr(item, "preload_skills", ()))


def audience(item: Item) -> tuple[str, ...] | None:
    return item.audience


def bundle_items(bundle: Bundle) -> Iterator[tuple[str, str]]:
    for kind in (Kind.RULE, Kind.SKILL, Kind.AGENT):
        for name in bundle.items.of(kind):
            yield str(kind), name


def bundle_requires(bundle: Bundle) -> Iterator[tuple[str, str | None]]:
    for req in bundle.requires:
        yield req.name, req.source
