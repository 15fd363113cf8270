"""`.upskill-lock.json`, schema 1, readable and writable alongside upstream upskill.

Field names and order match upstream so either tool can rewrite the file with
minimal diffs; unknown fields are kept on rewrite. Two compatible extensions
(ignored by upstream): an item's resolved git `commit`, and a top-level
`outputs` list recording every file written (path, sha256, size, owners) so
hand edits are detected and shared outputs are removed only with their last
owner. See docs/upskill/lifecycle.md.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from upskill.errors import UpskillError
from upskill.fsio import read_contained
from upskill.state.records import (
    McpEntry,
    PluginEntry,
    RecordError,
    entry_to_json,
    parse_mcp,
    parse_plugin,
)

LOCKFILE_NAME = ".upskill-lock.json"
SCHEMA = 1
KIND_ORDER = {"rule": 0, "skill": 1, "agent": 2}

_ITEM_FIELDS = (
    "kind",
    "name",
    "source",
    "ref",
    "hash",
    "source_name",
    "required_by",
    "group",
    "clients",
    "unplaced",
    "commit",
    "files",
)
_BUNDLE_FIELDS = ("name", "source", "ref", "items")
_OUTPUT_FIELDS = ("path", "sha256", "size", "mode", "owners")
_TOP_FIELDS = ("schema", "items", "bundles", "plugins", "mcps", "outputs", "generator", "edits")


_E = TypeVar("_E", McpEntry, PluginEntry)


class LockfileError(UpskillError):
    """The lockfile cannot be read: malformed JSON, wrong shape, newer schema."""


@dataclass(frozen=True)
class ItemRecord:
    kind: str
    name: str
    source: str
    ref: str | None = None
    hash: str | None = None
    source_name: str | None = None
    required_by: tuple[str, ...] = ()
    group: str | None = None
    clients: tuple[str, ...] = ()
    # Selected clients the item was not delivered to (no native place for its kind, a
    # team's own instructions file, a path-scoped rule for a one-file client): with
    # `clients`, the selection, which a bare `update` keeps and weighs again.
    unplaced: tuple[str, ...] = ()
    commit: str | None = None
    files: int | None = None  # distinct output paths the item rendered (all clients)
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """`kind:name`, the form `required_by` and output owners use."""
        return f"{self.kind}:{self.name}"

    @property
    def original_name(self) -> str:
        return self.source_name or self.name


@dataclass(frozen=True)
class BundleRecord:
    name: str
    source: str
    ref: str | None = None
    items: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, order=True)
class Owner:
    item: str  # "kind:name"
    client: str  # selectable client (claude, copilot, vscode, opencode)


@dataclass(frozen=True)
class OutputRecord:
    path: str
    sha256: str
    size: int
    owners: tuple[Owner, ...]
    mode: int = 0o644  # 0o755 is recorded (`"mode": "0755"`), so a lost executable bit shows


# (key, member, value), or (key, None, item): `lifecycle.edits.Member`.
EditMember = tuple[str, str | None, bool | str]


@dataclass(frozen=True)
class EditRecord:
    """An edit upskill made to a file it does not own (VS Code's `.vscode/settings.json`),
    kept so that removal can undo it byte for byte: the file did not exist (`created`),
    or its text had `was` where upskill's write has `length` characters from `at`.
    `sha256` is upskill's write: a file changed since is not restored from the record.
    `members`: the (setting, member, value) entries that write added, in the order it
    added them, and (key, None, item) for an item of the array `key` (stored apart, as
    `listed` [key, item] pairs, so an upskill that predates them still reads the file);
    None in a record from before they were listed, which added only the client's
    registration (`clients.base.Registration.settings_key`, set to true)."""

    path: str
    sha256: str
    created: bool = False
    at: int = 0
    length: int = 0
    was: str = ""
    members: tuple[EditMember, ...] | None = None


@dataclass(frozen=True)
class Lockfile:
    items: tuple[ItemRecord, ...] = ()
    bundles: tuple[BundleRecord, ...] = ()
    plugins: tuple[PluginEntry, ...] = ()
    mcps: tuple[McpEntry, ...] = ()
    outputs: tuple[OutputRecord, ...] = ()
    generator: str | None = None  # "upskill <version>" that rendered the recorded outputs
    extra: Mapping[str, Any] = field(default_factory=dict)
    edits: tuple[EditRecord, ...] = ()

    def item(self, kind: str, name: str) -> ItemRecord | None:
        return self._index.get((kind, name))

    @functools.cached_property
    def _index(self) -> dict[tuple[str, str], ItemRecord]:
        """(kind, name) -> the first such record: `item` is asked once per resolved item."""
        index: dict[tuple[str, str], ItemRecord] = {}
        for record in self.items:
            index.setdefault((record.kind, record.name), record)
        return index

    def normalised(self) -> Lockfile:
        """Canonical ordering, so writes are deterministic."""
        items = sorted(self.items, key=lambda i: (KIND_ORDER.get(i.kind, 9), i.name))
        bundles = sorted(self.bundles, key=lambda b: (b.name, b.source))
        outputs = sorted(
            (
                OutputRecord(o.path, o.sha256, o.size, tuple(sorted(set(o.owners))), o.mode)
                for o in self.outputs
            ),
            key=lambda o: o.path,
        )
        return Lockfile(
            tuple(items),
            tuple(bundles),
            self.plugins,
            self.mcps,
            tuple(outputs),
            self.generator,
            self.extra,
            tuple(sorted(self.edits, key=lambda e: e.path)),
        )


# ---------------------------------------------------------------- reading


def read_lockfile(path: Path) -> Lockfile:
    """Read a lockfile; a missing file is an empty lock. It must be a regular file in its
    scope (`fsio.read_contained`): a repository can make it a symlink or a FIFO."""
    try:
        data = read_contained(path, within=path.parent)
    except OSError as exc:
        raise LockfileError(f"cannot read lockfile: {exc.strerror}", path=path) from exc
    if data is None:
        return Lockfile()
    return parse_lockfile(data, path)


def parse_lockfile(data: bytes, path: Path) -> Lockfile:
    try:
        raw = json.loads(data.decode("utf-8"))
    except RecursionError:
        raise LockfileError("malformed lockfile: JSON nested too deeply", path=path) from None
    except (UnicodeDecodeError, ValueError) as exc:  # ValueError: also a 5,000-digit number
        line = getattr(exc, "lineno", None)
        raise LockfileError(
            f"malformed lockfile (invalid JSON): {exc}", path=path, line=line
        ) from None
    if type(raw) is not dict:
        raise LockfileError("malformed lockfile: top level must be an object", path=path)
    schema = raw.get("schema")
    if type(schema) is not int:
        raise LockfileError("malformed lockfile: `schema` must be an integer", path=path)
    if schema > SCHEMA:
        raise LockfileError(
            f"lockfile schema {schema} is newer than this upskill supports ({SCHEMA}); "
            "upgrade upskill",
            path=path,
        )
    if schema < 1:
        raise LockfileError(f"malformed lockfile: unsupported schema {schema}", path=path)
    reader = _Reader(path)
    return Lockfile(
        items=tuple(reader.item(x) for x in reader.array(raw, "items")),
        bundles=tuple(reader.bundle(x) for x in reader.array(raw, "bundles")),
        plugins=reader.entries(raw, "plugins", parse_plugin),
        mcps=reader.entries(raw, "mcps", parse_mcp),
        outputs=tuple(reader.output(x) for x in reader.array(raw, "outputs")),
        generator=reader.string(raw, "generator", "top level", required=False),
        extra={k: v for k, v in raw.items() if k not in _TOP_FIELDS},
        edits=tuple(reader.edit(x) for x in reader.array(raw, "edits")),
    )


class _Reader:
    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, message: str) -> LockfileError:
        return LockfileError(f"malformed lockfile: {message}", path=self.path)

    def array(self, raw: Mapping[str, Any], key: str) -> list[Any]:
        value = raw.get(key, [])
        if type(value) is not list:
            raise self.fail(f"`{key}` must be an array")
        return value

    def record(self, raw: Any, where: str) -> dict[str, Any]:
        if type(raw) is not dict:
            raise self.fail(f"every `{where}` entry must be an object")
        return raw

    def entries(
        self, raw: Mapping[str, Any], key: str, parse: Callable[[Any, int], _E]
    ) -> tuple[_E, ...]:
        """`mcps[]` / `plugins[]`: every record parsed, or the first bad one named."""
        try:
            return tuple(parse(x, i) for i, x in enumerate(self.array(raw, key)))
        except RecordError as exc:
            raise self.fail(str(exc)) from None

    def string(self, raw: Mapping[str, Any], key: str, where: str, *, required: bool) -> str | None:
        value = raw.get(key)
        if value is None and not required:
            return None
        if type(value) is not str or (required and not value):
            raise self.fail(f"`{where}` entry field `{key}` must be a non-empty string")
        return value

    def strings(self, raw: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
        value = raw.get(key, [])
        if type(value) is not list or any(type(v) is not str for v in value):
            raise self.fail(f"`{where}` entry field `{key}` must be an array of strings")
        return tuple(value)

    def count(self, raw: Mapping[str, Any], key: str, where: str) -> int | None:
        value = raw.get(key)
        if value is None:
            return None
        if type(value) is not int or value < 0:
            raise self.fail(f"`{where}` entry field `{key}` must be a non-negative integer")
        return value

    def item(self, raw: Any) -> ItemRecord:
        rec = self.record(raw, "items")
        kind = self.string(rec, "kind", "items", required=True)
        if kind not in KIND_ORDER:
            raise self.fail(f"unknown item kind {kind!r}")
        name = self.string(rec, "name", "items", required=True)
        assert kind is not None and name is not None
        _check_name(name, self)
        return ItemRecord(
            kind=kind,
            name=name,
            source=self.string(rec, "source", "items", required=True) or "",
            ref=self.string(rec, "ref", "items", required=False),
            hash=self.string(rec, "hash", "items", required=False),
            source_name=self.string(rec, "source_name", "items", required=False),
            required_by=self.strings(rec, "required_by", "items"),
            group=self.string(rec, "group", "items", required=False),
            clients=self.strings(rec, "clients", "items"),
            unplaced=self.strings(rec, "unplaced", "items"),
            commit=self.string(rec, "commit", "items", required=False),
            files=self.count(rec, "files", "items"),
            extra={k: v for k, v in rec.items() if k not in _ITEM_FIELDS},
        )

    def bundle(self, raw: Any) -> BundleRecord:
        rec = self.record(raw, "bundles")
        return BundleRecord(
            name=self.string(rec, "name", "bundles", required=True) or "",
            source=self.string(rec, "source", "bundles", required=True) or "",
            ref=self.string(rec, "ref", "bundles", required=False),
            items=self.strings(rec, "items", "bundles"),
            extra={k: v for k, v in rec.items() if k not in _BUNDLE_FIELDS},
        )

    def output(self, raw: Any) -> OutputRecord:
        rec = self.record(raw, "outputs")
        path = self.string(rec, "path", "outputs", required=True) or ""
        _check_relative(path, self)
        sha = self.string(rec, "sha256", "outputs", required=True) or ""
        size = rec.get("size")
        if type(size) is not int or size < 0:
            raise self.fail("`outputs` entry field `size` must be a non-negative integer")
        owners_raw = rec.get("owners")
        if type(owners_raw) is not list or not owners_raw:
            raise self.fail("`outputs` entry field `owners` must be a non-empty array")
        owners = []
        for o in owners_raw:
            item, at, client = o.rpartition("@") if type(o) is str else ("", "", "")
            if not at or ":" not in item or not client:
                raise self.fail("`outputs` owners must be strings `kind:name@client`")
            owners.append(Owner(item, client))
        mode = rec.get("mode", "0644")
        if mode not in ("0644", "0755"):
            raise self.fail('`outputs` entry field `mode` must be "0644" or "0755"')
        return OutputRecord(path, sha, size, tuple(owners), int(mode, 8))

    def edit(self, raw: Any) -> EditRecord:
        rec = self.record(raw, "edits")
        path = self.string(rec, "path", "edits", required=True) or ""
        _check_relative(path, self)
        sha = self.string(rec, "sha256", "edits", required=True) or ""
        members = self.members(rec)
        if rec.get("created", False) is True:
            return EditRecord(path, sha, created=True, members=members)
        at, length = self.count(rec, "at", "edits"), self.count(rec, "length", "edits")
        was = rec.get("was")
        if at is None or length is None or type(was) is not str:
            raise self.fail("`edits` entry needs `created: true`, or `at`, `length` and `was`")
        return EditRecord(path, sha, at=at, length=length, was=was, members=members)

    def members(self, rec: Mapping[str, Any]) -> tuple[EditMember, ...] | None:
        raw, items = rec.get("members"), rec.get("listed")
        if raw is None and items is None:
            return None
        entries: list[Any] = raw if type(raw) is list else [None] if raw is not None else []
        for entry in entries:
            if (
                type(entry) is not list
                or len(entry) != 3
                or not all(type(e) is str and e for e in entry[:2])
                or type(entry[2]) is not bool
            ):
                raise self.fail("`edits` field `members` must hold [setting, member, bool] arrays")
        pairs: list[Any] = items if type(items) is list else [None] if items is not None else []
        for pair in pairs:
            if (
                type(pair) is not list
                or len(pair) != 2
                or not all(type(e) is str and e for e in pair)
            ):
                raise self.fail("`edits` field `listed` must hold [key, item] string arrays")
        return (
            *((e[0], e[1], e[2]) for e in entries),
            *((p[0], None, p[1]) for p in pairs),
        )


def _check_name(name: str, reader: _Reader) -> None:
    if "/" in name or "\\" in name or name in (".", "..") or name.startswith("."):
        raise reader.fail(f"item name {name!r} is not a plain name")


def _check_relative(path: str, reader: _Reader) -> None:
    parts = path.split("/")
    if path.startswith("/") or "\\" in path or any(p in ("", ".", "..") for p in parts):
        raise reader.fail(f"output path {path!r} must be relative and stay inside the scope")


# ---------------------------------------------------------------- writing


def _drop_empty(pairs: Iterable[tuple[str, Any]], keep: tuple[str, ...] = ()) -> dict[str, Any]:
    return {k: v for k, v in pairs if k in keep or (v is not None and v != [] and v != ())}


def item_to_json(item: ItemRecord) -> dict[str, Any]:
    out = _drop_empty(
        [
            ("kind", item.kind),
            ("name", item.name),
            ("source", item.source),
            ("ref", item.ref),
            ("hash", item.hash),
            ("source_name", item.source_name),
            ("required_by", list(item.required_by)),
            ("group", item.group),
            ("clients", list(item.clients)),
            ("unplaced", list(item.unplaced)),
            ("commit", item.commit),
            ("files", item.files),
        ]
    )
    out.update(item.extra)
    return out


def lockfile_to_json(lock: Lockfile) -> dict[str, Any]:
    lock = lock.normalised()
    out: dict[str, Any] = {"schema": SCHEMA, "items": [item_to_json(i) for i in lock.items]}
    bundles = []
    for b in lock.bundles:
        entry = _drop_empty([("name", b.name), ("source", b.source), ("ref", b.ref)])
        entry["items"] = list(b.items)
        entry.update(b.extra)
        bundles.append(entry)
    out["bundles"] = bundles
    if lock.plugins:
        out["plugins"] = [entry_to_json(p) for p in lock.plugins]
    if lock.mcps:
        out["mcps"] = [entry_to_json(m) for m in lock.mcps]
    if lock.outputs:
        out["outputs"] = [
            {
                "path": o.path,
                "sha256": o.sha256,
                "size": o.size,
                **({"mode": "0755"} if o.mode == 0o755 else {}),
                "owners": [f"{w.item}@{w.client}" for w in o.owners],
            }
            for o in lock.outputs
        ]
    if lock.generator is not None and lock.outputs:  # it describes the recorded outputs
        out["generator"] = lock.generator
    if lock.edits:
        out["edits"] = [_edit(e) for e in lock.edits]
    out.update(lock.extra)
    return out


def _edit(e: EditRecord) -> dict[str, Any]:
    out: dict[str, Any] = {"path": e.path, "sha256": e.sha256}
    if e.created:
        out["created"] = True
    else:
        out.update(at=e.at, length=e.length, was=e.was)
    if e.members is not None:
        out["members"] = [list(m) for m in e.members if m[1] is not None]
        listed = [[m[0], m[2]] for m in e.members if m[1] is None]
        if listed:
            out["listed"] = listed
    return out


def serialise_lockfile(lock: Lockfile) -> bytes:
    """Pretty JSON (2 spaces) plus newline, as upstream writes it.

    Byte for byte `json.dumps(lockfile_to_json(lock), indent=2, ensure_ascii=False)`: the
    `outputs` records (thousands, one fixed shape) are laid out by a template, because
    `json` drops to its pure-Python encoder whenever it indents."""
    doc = lockfile_to_json(lock)
    members = []
    for key, value in doc.items():
        if key == "outputs" and "outputs" not in lock.extra:
            text = _outputs_text(value)
        else:
            text = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  ")
        members.append(f"  {_string(key)}: {text}")
    return ("{\n" + ",\n".join(members) + "\n}\n").encode()


_string = json.encoder.encode_basestring  # what `ensure_ascii=False` emits for a str


def _outputs_text(outputs: list[dict[str, Any]]) -> str:
    records = []
    for o in outputs:
        owners = ",\n".join(f"        {_string(w)}" for w in o["owners"])
        owners_text = f"[\n{owners}\n      ]" if owners else "[]"
        mode = f'      "mode": {_string(o["mode"])},\n' if "mode" in o else ""
        records.append(
            f'    {{\n      "path": {_string(o["path"])},\n'
            f'      "sha256": {_string(o["sha256"])},\n'
            f'      "size": {int.__repr__(o["size"])},\n'
            f"{mode}"
            f'      "owners": {owners_text}\n    }}'
        )
    return "[\n" + ",\n".join(records) + "\n  ]" if records else "[]"
