"""The one place lifecycle code touches the portable-format API.

Everything the resolver needs from an item or bundle is read here, so a change
in the format model is a one-file fix.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from upskill.format.model import Bundle, Item, Kind
from upskill.sources.fetch import Fetched

KIND_NAMES: tuple[str, ...] = ("rule", "skill", "agent")


@dataclass(frozen=True)
class SourceCatalog:
    fetched: Fetched
    items: dict[tuple[str, str], Item] = field(default_factory=dict)
    bundles: dict[str, Bundle] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.fetched.spec.label

    def items_named(self, name: str) -> list[Item]:
        return [self.items[(k, name)] for k in KIND_NAMES if (k, name) in self.items]


def load_catalog(fetched: Fetched) -> SourceCatalog:
    from upskill.format import discover

    found = discover(fetched.root)
    items = {(str(i.kind), i.name): i for i in found.items}
    bundles = {b.name: b for b in found.bundles}
    return SourceCatalog(fetched, items, bundles)


def load_bundle_file(path: Path) -> Bundle:
    from upskill.format import load_bundle

    return load_bundle(path)


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
