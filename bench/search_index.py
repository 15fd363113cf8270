"""Search latency over a 10,000-item registry index, against a linear-scan baseline.

Run from the repository root: ``uv run python bench/search_index.py [--items N] [--runs N]``.

Builds the SQLite FTS5 index (`upskill.search.store`) for N generated items
split over two registries, then times ranked queries (bm25 over name,
description and first paragraph, plus public hits inserted and rolled back
as `upskill search` does) against the upstream algorithm on the same data:
a case-insensitive substring scan of every name and description, unranked.
Budget: a query answers in under 50 ms once the index is built. This is a
measurement, not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from upskill.search.model import Entry, PublicHit
from upskill.search.store import IndexStore

BUDGET_MS = 50.0
_VOCABULARY = (
    "review code test deploy lint format commit security audit docs api rest graphql "
    "database migration schema cache queue worker python rust typescript react vue "
    "terraform kubernetes docker cloud aws azure gcp monitor log trace metric alert "
    "incident oncall release changelog version semver branch merge rebase refactor "
    "performance profile benchmark memory leak thread async stream parser compiler"
)
WORDS = tuple(_VOCABULARY.split())
QUERIES = ("review", "security audit", "kube", "database migration schema", "rust parser", "zzz")


def generate(count: int, seed: int = 7) -> list[Entry]:
    rng = random.Random(seed)
    entries = []
    for i in range(count):
        name = "-".join(rng.sample(WORDS, 2)) + f"-{i}"
        description = " ".join(rng.choices(WORDS, k=12)).capitalize() + "."
        paragraph = " ".join(rng.choices(WORDS, k=40)) + "."
        kind = ("skill", "rule", "agent")[i % 3]
        entries.append(Entry(name, kind, description, paragraph, f"skills/{name}"))
    return entries


def linear(entries: list[Entry], query: str, limit: int) -> list[str]:
    needle = query.lower()
    hits = [e.name for e in entries if needle in e.name.lower() or needle in e.description.lower()]
    return hits[:limit]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    entries = generate(args.items)
    half = len(entries) // 2
    public = [(PublicHit(f"public-{w}", "github/o/r", 10), f"upskill add o/r public-{w}")
              for w in WORDS[:10]]  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        store = IndexStore(Path(tmp) / "index.sqlite3")
        start = time.perf_counter()
        for name, part in (("corp", entries[:half]), ("team", entries[half:])):
            store.replace(name, name, "head", part, [f"upskill add {name} {e.name}" for e in part],
                          "0")  # fmt: skip
        build = time.perf_counter() - start
        size = (Path(tmp) / "index.sqlite3").stat().st_size
        print(f"items {len(entries)}, build {build * 1e3:.0f} ms, index {size / 1e6:.1f} MB")
        print(f"{'query':<28} {'fts5 ms':>9} {'scan ms':>9} {'ratio':>7} {'hits':>5}  budget")
        worst = 0.0
        for query in QUERIES:
            fts: list[float] = []
            scan: list[float] = []
            hits = 0
            for _ in range(args.runs):
                t0 = time.perf_counter()
                hits = len(store.search(query, registries=["corp", "team"], public=public))
                t1 = time.perf_counter()
                linear(entries, query, 10)
                t2 = time.perf_counter()
                fts.append(t1 - t0)
                scan.append(t2 - t1)
            a, b = statistics.median(fts) * 1e3, statistics.median(scan) * 1e3
            worst = max(worst, a)
            verdict = "ok" if a < BUDGET_MS else "OVER"
            print(f"{query:<28} {a:>9.2f} {b:>9.2f} {a / b:>7.2f} {hits:>5}  {verdict}")
        store.close()
    print(f"slowest median query {worst:.2f} ms (budget {BUDGET_MS:.0f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
