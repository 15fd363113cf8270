"""The local search index: one SQLite FTS5 database in the user cache.

One database (rather than a JSON file per registry, as upstream keeps) lets a
single bm25 ranking span every registry: each registry's rows and its head are
replaced in one transaction when that registry moves, and public API hits are
inserted into the same table inside a transaction that is rolled back after
the query, so they are ranked by the same function and never persisted.
Columns are weighted name 10, description 3, first paragraph 1. Registry and
kind filters are hashed tokens in a `tags` column, so filtering happens inside
the full-text index and only the winning rows are ever read in full.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from upskill.errors import UpskillError, UsageError
from upskill.search.model import PUBLIC_ORIGIN, Entry, Hit, PublicHit

SCHEMA = 4  # bump to rebuild caches written by an older layout
INDEX_FILE = "index.sqlite3"
# bm25 weights per column: name 10, description 3, paragraph 1; tags and the
# unindexed columns 0.
_RANKED = (
    "SELECT rowid, bm25(items, 10.0, 3.0, 1.0, 0, 0, 0, 0, 0, 0) AS score FROM items"
    " WHERE items MATCH ? ORDER BY score, rowid LIMIT ?"
)
_SCORED = (
    "SELECT rowid, bm25(items, 10.0, 3.0, 1.0, 0, 0, 0, 0, 0, 0) FROM items"
    " WHERE items MATCH ? AND rowid IN (SELECT value FROM json_each(?))"
)
_UNMATCHED = "SELECT rowid FROM items WHERE items MATCH ? ORDER BY rowid"
_DETAILS = (
    "SELECT rowid, name, kind, description, paragraph, registry, install, installs"
    " FROM items WHERE rowid IN (SELECT value FROM json_each(?))"
)
_INSERT = (
    "INSERT INTO items(name, description, paragraph, tags, registry, kind, path, install,"
    " installs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_PUBLIC_KEY = "\0skills.sh"  # no configured registry name holds a NUL


def _tag(prefix: str, value: str) -> str:
    """A single alphanumeric token, so filters run inside the full-text index."""
    return prefix + hashlib.sha256(value.encode()).hexdigest()[:16]


def _tags(registry_key: str, kind: str) -> str:
    return f"{_tag('reg', registry_key)} {_tag('kind', kind)}"


def _filter(registry_keys: Sequence[str], kind: str | None) -> str:
    regs = " OR ".join(_tag("reg", r) for r in registry_keys)
    expression = f"{{tags}} : ({regs})"
    if kind:
        expression += f" AND {{tags}} : {_tag('kind', kind)}"
    return expression


# Words as the unicode61 tokenizer sees them (underscore separates).
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


class SearchIndexError(UpskillError):
    """The index database cannot be opened or written."""


@dataclass(frozen=True)
class RegistryState:
    registry: str
    source: str
    head: str
    indexed_at: str
    count: int


def match_expression(query: str) -> str:
    """FTS5 query: every word as a prefix term, any may match (bm25 rewards more)."""
    words = _WORD.findall(query.lower())
    if not words:
        raise UsageError(f"search query {query!r} has no searchable words")
    terms = " OR ".join(f'"{w}"*' for w in dict.fromkeys(words))
    return f"{{name description paragraph}} : ({terms})"


class IndexStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None

    def _connect(self) -> sqlite3.Connection:
        if self._db is not None:
            return self._db
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, isolation_level=None, timeout=10)
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version != SCHEMA:
                self._create(db)
        except sqlite3.DatabaseError:
            # A cache is disposable: a corrupt or foreign file is rebuilt.
            with contextlib.suppress(NameError):
                db.close()
            self.path.unlink(missing_ok=True)
            db = sqlite3.connect(self.path, isolation_level=None, timeout=10)
            self._create(db)
        except OSError as exc:
            raise SearchIndexError(
                f"cannot open index: {exc.strerror or exc}", path=self.path
            ) from None
        self._db = db
        return db

    @staticmethod
    def _create(db: sqlite3.Connection) -> None:
        db.executescript(
            f"""
            BEGIN;
            DROP TABLE IF EXISTS items;
            DROP TABLE IF EXISTS registries;
            CREATE VIRTUAL TABLE items USING fts5(
                name, description, paragraph, tags,
                registry UNINDEXED, kind UNINDEXED, path UNINDEXED,
                install UNINDEXED, installs UNINDEXED,
                tokenize = 'porter unicode61 remove_diacritics 2', prefix = '2 3'
            );
            CREATE TABLE registries(
                registry TEXT PRIMARY KEY, source TEXT, head TEXT, indexed_at TEXT, count INTEGER
            );
            PRAGMA user_version = {SCHEMA};
            COMMIT;
            """
        )

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    @contextlib.contextmanager
    def _transaction(self, *, commit: bool) -> Iterator[sqlite3.Connection]:
        db = self._connect()
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise SearchIndexError(f"index is busy: {exc}", path=self.path) from None
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT" if commit else "ROLLBACK")

    def state(self, registry: str) -> RegistryState | None:
        row = (
            self._connect()
            .execute(
                "SELECT registry, source, head, indexed_at, count FROM registries "
                "WHERE registry = ?",
                (registry,),
            )
            .fetchone()
        )
        return RegistryState(*row) if row else None

    def replace(
        self,
        registry: str,
        source: str,
        head: str,
        entries: Sequence[Entry],
        install: Sequence[str],
        indexed_at: str,
    ) -> None:
        """Swap a registry's rows and head in one transaction."""
        with self._transaction(commit=True) as db:
            db.execute("DELETE FROM items WHERE registry = ?", (registry,))
            db.executemany(
                _INSERT,
                [
                    (e.name, e.description, e.paragraph, _tags(registry, e.kind), registry,
                     e.kind, e.path, cmd, None)
                    for e, cmd in zip(entries, install, strict=True)
                ],
            )  # fmt: skip
            db.execute(
                "INSERT OR REPLACE INTO registries VALUES (?, ?, ?, ?, ?)",
                (registry, source, head, indexed_at, len(entries)),
            )

    def clear(self, registry: str | None = None) -> None:
        if registry is None:
            self.close()
            for suffix in ("", "-journal", "-wal", "-shm"):
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
            return
        if not self.path.exists():
            return
        with self._transaction(commit=True) as db:
            db.execute("DELETE FROM items WHERE registry = ?", (registry,))
            db.execute("DELETE FROM registries WHERE registry = ?", (registry,))

    def search(
        self,
        query: str,
        *,
        registries: Sequence[str],
        public: Sequence[tuple[PublicHit, str]] = (),
        kind: str | None = None,
        limit: int = 10,
    ) -> list[Hit]:
        """Rank registry rows and public hits (with their install commands) together.

        An item whose whole name is the query comes first; the rest follow by
        bm25, then any public hits our words do not match (score 0). Only row
        ids are sorted; details are read for the winners alone.
        """
        words = _WORD.findall(query.lower())
        terms = match_expression(query)
        keys = [*registries, *([_PUBLIC_KEY] if public else [])]
        if not keys:
            return []
        scope = _filter(keys, kind)
        with self._transaction(commit=False) as db:
            db.executemany(
                _INSERT,
                [
                    (h.name, h.description, "", _tags(_PUBLIC_KEY, "skill"), PUBLIC_ORIGIN,
                     "skill", "", cmd, h.installs)
                    for h, cmd in public
                ],
            )  # fmt: skip
            phrase = " ".join(words)
            exact_ids = self._exact(db, f'{{name}} : ^"{phrase}" AND {scope}', "-".join(words))
            ranked = db.execute(_RANKED, (f"{terms} AND {scope}", limit)).fetchall()
            scores = dict(ranked)
            if exact_ids:
                scores.update(db.execute(_SCORED, (f"{terms} AND {scope}", json.dumps(exact_ids))))
            order = list(dict.fromkeys([*exact_ids, *(r for r, _ in ranked)]))[:limit]
            if public and len(order) < limit:
                # skills.sh may match on more than our words do: its other hits
                # follow, in the server's order.
                rest = db.execute(_UNMATCHED, (_filter([_PUBLIC_KEY], None),)).fetchall()
                order += [r for (r,) in rest if r not in scores][: limit - len(order)]
            details = {row[0]: row[1:] for row in db.execute(_DETAILS, (json.dumps(order),))}
        hits = []
        for rowid in order:
            name, k, description, paragraph, registry, install, installs = details[rowid]
            hits.append(
                Hit(
                    name=name,
                    kind=k,
                    description=description or paragraph,
                    origin=registry,
                    install=install,
                    score=-scores.get(rowid, 0.0),
                    installs=installs,
                )
            )
        return hits

    @staticmethod
    def _exact(db: sqlite3.Connection, expression: str, name: str) -> list[int]:
        rows = db.execute(
            "SELECT rowid, lower(name) FROM items WHERE items MATCH ? ORDER BY rowid", (expression,)
        ).fetchall()
        return [rowid for rowid, found in rows if found == name]
