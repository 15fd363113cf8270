"""Resolve what a command asked for into the exact set of items to install.

Roots (named items, bundles, or a whole source) expand through bundle
`requires`, item `requires` and soft `preload-skills` edges, possibly across
sources. Every conflict — cycles, one name from two sources, unknown names — is
an error raised here, before anything is rendered or written.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from upskill.errors import UpskillError, UsageError
from upskill.format.model import Bundle, Item
from upskill.lifecycle import catalog as cat
from upskill.lifecycle.catalog import SourceCatalog
from upskill.sources.spec import SourceSpec, parse_source

_ALIAS = re.compile(r"^[a-z0-9]+(?:-+[a-z0-9]+)*$")


class ResolveError(UpskillError):
    """Selection cannot be satisfied (unknown name, cycle, conflict)."""


@dataclass(frozen=True)
class Request:
    """One source and what to take from it (no names: every item it holds)."""

    spec: SourceSpec
    names: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    aliases: Mapping[str, str] = field(default_factory=dict)  # original name -> installed name
    single_alias: str | None = None  # `--as ALIAS` without `orig=`
    missing_ok: bool = False  # update: a vanished name is a warning, not an error


@dataclass(frozen=True)
class Resolved:
    item: Item
    kind: str
    name: str  # installed name (alias or effective name)
    original: str  # effective name in the source
    catalog: SourceCatalog
    required_by: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.name}"

    @property
    def alias(self) -> str | None:
        return self.name if self.name != self.original else None


@dataclass(frozen=True)
class ResolvedBundle:
    name: str
    bundle: Bundle
    catalog: SourceCatalog
    items: tuple[str, ...]

    @property
    def source_label(self) -> str:
        return self.catalog.label


@dataclass(frozen=True)
class Resolution:
    items: tuple[Resolved, ...]
    bundles: tuple[ResolvedBundle, ...]
    warnings: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()  # names a `missing_ok` request could not find


CatalogFor = Callable[[SourceSpec], SourceCatalog]
# A requested item: the source it comes from (a required bundle's may be another source
# than the request's), the item, and its name before `--as`.
Root = tuple[SourceCatalog, Item, str]


def parse_aliases(values: Sequence[str]) -> tuple[dict[str, str], str | None]:
    mapping: dict[str, str] = {}
    single: str | None = None
    for value in values:
        orig, sep, alias = value.partition("=")
        if not sep:
            orig, alias = "", value
        if not _ALIAS.match(alias) or len(alias) > 64:
            raise UsageError(f"--as {value!r}: alias must be lowercase letters, digits and hyphens")
        if not sep:
            if single is not None:
                raise UsageError("--as ALIAS may be given once; use --as orig=alias for several")
            single = alias
        else:
            mapping[orig] = alias
    return mapping, single


class Resolver:
    def __init__(self, catalog_for: CatalogFor, *, home: Path, anchor: Path | None = None) -> None:
        self._catalog_for = catalog_for
        self._home = home
        self._anchor = anchor
        self._selected: dict[tuple[str, str], Resolved] = {}  # (kind, installed name)
        self._required_by: dict[tuple[str, str], list[str]] = {}
        self._done: set[tuple[str, str, str]] = set()
        self._bundles: dict[str, ResolvedBundle] = {}
        self._warnings: list[str] = []
        self._missing: list[str] = []
        self._noted: set[str] = set()  # sources whose manifest notes were reported

    # ---------------------------------------------------------------- entry

    def resolve(self, requests: Sequence[Request]) -> Resolution:
        for request in requests:
            self._request(request)
        items = tuple(
            Resolved(
                r.item,
                r.kind,
                r.name,
                r.original,
                r.catalog,
                tuple(sorted(set(self._required_by.get((r.kind, r.name), [])))),
            )
            for r in self._selected.values()
        )
        return Resolution(
            items, tuple(self._bundles.values()), tuple(self._warnings), tuple(self._missing)
        )

    def _request(self, request: Request) -> None:
        catalog = self._catalog_for(request.spec)
        if catalog.label not in self._noted:
            self._noted.add(catalog.label)
            self._warnings += [f"{n.where}: {n.message}" for n in catalog.notes]
        roots: list[Root] = []
        bundle_file = catalog.fetched.bundle_file
        if bundle_file is not None:
            bundle = cat.load_bundle_file(catalog.fetched)
            roots += self._bundle_closure(catalog, bundle, request, [])
        if request.names:
            for name in request.names:
                items = catalog.items_named(name)
                bundle_match = catalog.bundles.get(name)
                if items and bundle_match is not None:
                    raise ResolveError(
                        f"{catalog.label}: {name!r} names both an item and a bundle; "
                        f"use the bundle path (…:{_rel(bundle_match.path, catalog)}) "
                        "to pick the bundle"
                    )
                if bundle_match is not None:
                    roots += self._bundle_closure(catalog, bundle_match, request, [])
                elif items:
                    roots += [(catalog, i, i.name) for i in items]
                elif (problem := cat.problem_for(catalog, name)) is not None:
                    raise problem  # named explicitly: its error, not a silent skip
                elif request.missing_ok:
                    self._missing.append(name)
                    self._warnings.append(f"{catalog.label}: {name!r} is no longer in the source")
                else:
                    raise ResolveError(f"{catalog.label}: no item or bundle named {name!r}")
        elif bundle_file is None:
            roots += [(catalog, i, i.name) for i in catalog.items.values()]
            skipped = tuple(f"{p.where}: skipped: {p.message}" for p in catalog.problems)
            self._warnings += skipped
            if not roots:
                why = " (every item was skipped, see above)" if skipped else ""
                raise ResolveError(
                    f"{catalog.label}: no items found in the source{why}", warnings=skipped
                )
        roots = [(c, i, n) for c, i, n in roots if n not in request.exclude]
        unknown_excludes = set(request.exclude) - {i.name for i in catalog.items.values()}
        for name in sorted(unknown_excludes):
            self._warnings.append(f"--exclude {name}: no such item in {catalog.label}")
        names = {n for _, _, n in roots}
        if request.single_alias is not None and len(names) != 1:
            raise UsageError("--as ALIAS needs exactly one selected item; use --as orig=alias")
        for orig in request.aliases:
            if orig not in names and orig not in self._missing:
                raise UsageError(f"--as {orig}=…: {orig!r} is not among the selected items")
        for origin, item, name in roots:  # a required bundle's items keep their own source
            alias = request.aliases.get(name) or request.single_alias or name
            self._visit(origin, item, alias, None, [])

    # ---------------------------------------------------------------- bundles

    def _bundle_closure(
        self, catalog: SourceCatalog, bundle: Bundle, request: Request, stack: list[str]
    ) -> list[Root]:
        key = f"{catalog.label}#{bundle.name}"
        if key in stack:
            cycle = " -> ".join([*stack[stack.index(key) :], key])
            raise ResolveError(f"bundle requires cycle: {cycle}")
        seen = self._bundles.get(bundle.name)
        if seen is not None:
            if seen.source_label != catalog.label:
                raise ResolveError(
                    f"bundle {bundle.name!r} resolves to two sources: "
                    f"{seen.source_label} and {catalog.label}"
                )
            return []
        roots: list[Root] = []
        names: list[str] = []
        for kind, name in cat.bundle_items(bundle):
            item = catalog.items.get((kind, name))
            if item is None:
                raise ResolveError(
                    f"bundle {bundle.name!r} lists {kind} {name!r}, not found in {catalog.label}",
                    path=cat.where(bundle.path, catalog),
                )
            roots.append((catalog, item, name))
            names.append(name)
        self._bundles[bundle.name] = ResolvedBundle(
            bundle.name, bundle, catalog, tuple(dict.fromkeys(names))
        )
        for req_name, req_source in cat.bundle_requires(bundle):
            target = catalog if req_source is None else self._cross(req_source, catalog)
            required = target.bundles.get(req_name)
            if required is None:
                raise ResolveError(
                    f"bundle {bundle.name!r} requires bundle {req_name!r}, "
                    f"not found in {target.label}",
                    path=cat.where(bundle.path, catalog),
                )
            roots += self._bundle_closure(target, required, request, [*stack, key])
        return roots

    # ---------------------------------------------------------------- items

    def _visit(
        self, catalog: SourceCatalog, item: Item, name: str, via: str | None, stack: list[str]
    ) -> None:
        kind = cat.kind_of(item)
        node = f"{catalog.label}#{kind}:{item.name}"
        if node in stack:
            cycle = " -> ".join([*stack[stack.index(node) :], node])
            raise ResolveError(f"requires cycle: {cycle}")
        existing = self._selected.get((kind, name))
        if existing is not None and (
            existing.catalog.label != catalog.label or existing.original != item.name
        ):
            raise ResolveError(
                f"{kind} {name!r} resolves to two sources: {existing.catalog.label} "
                f"and {catalog.label}"
            )
        if via is not None:
            self._required_by.setdefault((kind, name), []).append(via)
        if existing is None:
            self._selected[(kind, name)] = Resolved(item, kind, name, item.name, catalog)
            where = cat.source_path(item.entrypoint, catalog.fetched) or item.entrypoint
            self._warnings += [f"{where}: {w}" for w in item.warnings]
        done_key = (catalog.label, kind, item.name)
        if done_key in self._done:
            return
        here = [*stack, node]
        me = f"{kind}:{name}"
        for req_kind, req_name, req_source in cat.requirements(item):
            target = catalog if req_source is None else self._cross(req_source, catalog)
            dep = target.items.get((req_kind, req_name))
            if dep is None:
                raise ResolveError(
                    f"{kind} {item.name!r} requires {req_kind} {req_name!r}, "
                    f"not found in {target.label}",
                    path=cat.where(item.entrypoint, catalog),
                )
            self._visit(target, dep, dep.name, me, here)
        for skill in cat.preload_skills(item):
            dep = catalog.items.get(("skill", skill))
            if dep is not None:  # soft: absent from the same source is only a runtime hint
                self._visit(catalog, dep, dep.name, me, here)
        self._done.add(done_key)

    def _cross(self, source: str, origin: SourceCatalog) -> SourceCatalog:
        spec = parse_source(source, cwd=origin.fetched.root, home=self._home, anchor=self._anchor)
        return self._catalog_for(spec)


def _rel(path: Path, catalog: SourceCatalog) -> str:
    try:
        return path.relative_to(catalog.fetched.root).as_posix()
    except ValueError:
        return path.name
