"""`upskill search <query>`: ranked results from configured registries and skills.sh."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from upskill.cli.console import Console
    from upskill.world import World

KINDS = ("rule", "skill", "agent")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("query", nargs="+", help="words to look for")
    parser.add_argument("-l", "--limit", type=_positive, default=10, help="results (default 10)")
    parser.add_argument("-r", "--registry", help="search only this configured registry")
    parser.add_argument("-k", "--kind", choices=KINDS, help="only items of this kind")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace, console: Console, world: World) -> int:
    from upskill.errors import UpskillError
    from upskill.search import session
    from upskill.search.public import PublicSearchError, install_command, search_public

    query = " ".join(args.query)
    warnings: list[str] = []
    registries = session.registries(world, args.registry)
    store = session.open_store(world)
    try:
        refresher = session.refresher(world, store)
        refreshes = [refresher.refresh(r) for r in registries]
        warnings += [r.warning for r in refreshes if r.warning]
        usable = [r.registry for r in refreshes if r.usable]
        public = []
        public_ok = False
        if args.registry is None and args.kind in (None, "skill"):
            try:
                hits = search_public(query, args.limit, world.env)
                public = [(h, install_command(h)) for h in hits]
                public_ok = True
            except PublicSearchError as exc:
                warnings.append(f"public registry: {exc}")
        results = store.search(
            query, registries=usable, public=public, kind=args.kind, limit=args.limit
        )
    finally:
        store.close()
    for warning in warnings:
        console.warn(warning)
    if not public_ok and not usable:
        raise UpskillError("no registry could be searched")
    if args.json:
        console.json(json.dumps({"results": [h.to_json() for h in results]}, indent=2) + "\n")
        return 0
    if not results:
        console.info(f"no results for {query!r}")
    blocks = []
    for hit in results:
        head = f"{hit.name} [{hit.kind}]  {hit.origin}"
        if hit.installs is not None:
            head += f"  {hit.installs} installs"
        lines = [head]
        if hit.description:
            text = hit.description
            lines.append("  " + (text if len(text) <= 100 else text[:99] + "…"))
        lines.append(f"  {hit.install}")
        blocks.append("\n".join(lines))
    if blocks:
        console.data("\n\n".join(blocks) + "\n")
    return 0
