"""`upskill index`: rebuild (or clear) the local index of configured registries."""

from __future__ import annotations

import argparse
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-r", "--registry", help="only this configured registry")
    parser.add_argument("--clear", action="store_true", help="delete the cached index")


def run(args: argparse.Namespace) -> int:
    from upskill.errors import UpskillError
    from upskill.lifecycle.scope import World
    from upskill.search import session

    world = World.current()
    try:
        store = session.open_store(world)
        if args.clear:
            store.clear(args.registry)
            target = f"registry {args.registry}" if args.registry else "all registries"
            if not args.quiet:
                sys.stdout.write(f"cleared the search index for {target}\n")
            return 0
        registries = session.registries(world, args.registry)
        if not registries:
            if not args.quiet:
                sys.stderr.write(
                    "no registries configured (add `registries:` to .upskill/config.yaml "
                    "or ~/.config/upskill/config.yaml)\n"
                )
            return 0
        refresher = session.refresher(world, store)
        refreshes = [refresher.refresh(r, force=True) for r in registries]
        store.close()
    except UpskillError as exc:
        sys.stderr.write(f"upskill index: {exc}\n")
        return exc.exit_code
    failed = False
    for refresh in refreshes:
        if refresh.warning:
            failed = True
            sys.stderr.write(f"warning: {refresh.warning}\n")
        elif not args.quiet:
            noun = "item" if refresh.count == 1 else "items"
            sys.stdout.write(f"{refresh.registry}: indexed {refresh.count} {noun}\n")
    return 1 if failed else 0
