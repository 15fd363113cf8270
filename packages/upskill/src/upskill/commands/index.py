"""`upskill index`: rebuild (or clear) the local index of configured registries."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from upskill.cli.console import Console
    from upskill.world import World


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-r", "--registry", help="only this configured registry")
    parser.add_argument("--clear", action="store_true", help="delete the cached index")


def run(args: argparse.Namespace, console: Console, world: World) -> int:
    from upskill.search import session

    store = session.open_store(world)
    try:
        if args.clear:
            store.clear(args.registry)
            target = f"registry {args.registry}" if args.registry else "all registries"
            if not args.quiet:
                console.data(f"cleared the search index for {target}\n")
            return 0
        registries = session.registries(world, args.registry)
        if not registries:
            console.info(
                "no registries configured (add `registries:` to .upskill/config.yaml "
                "or ~/.config/upskill/config.yaml)"
            )
            return 0
        refresher = session.refresher(world, store)
        refreshes = [refresher.refresh(r, force=True) for r in registries]
    finally:
        store.close()
    failed = False
    for refresh in refreshes:
        if refresh.warning:
            failed = True
            console.warn(refresh.warning, always=True)  # the reason for exit 1
        elif not args.quiet:
            noun = "item" if refresh.count == 1 else "items"
            console.data(f"{refresh.registry}: indexed {refresh.count} {noun}\n")
    return 1 if failed else 0
