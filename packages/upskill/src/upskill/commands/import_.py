"""`upskill import [--from CLIENT…] [--into DIR] [--split] [-g] [--dry-run] [--json]`:
read the files the clients already have into a portable registry (docs/upskill/import.md)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from upskill.cli.cliargs import dry_run_flag, json_flag

if TYPE_CHECKING:
    from upskill.cli.console import Console
    from upskill.importing.model import ImportPlan
    from upskill.world import World

DEFAULT_INTO = ".upskill/registry"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--from",
        dest="from_",
        nargs="+",
        default=[],
        metavar="CLIENT",
        help="read only these clients' files (default: every client)",
    )
    parser.add_argument(
        "--into",
        type=Path,
        default=None,
        metavar="DIR",
        help=f"where the registry is written (default: {DEFAULT_INTO})",
    )
    parser.add_argument(
        "--split",
        action="store_true",
        help="one rule per top-level section of CLAUDE.md, AGENTS.md, … (default: one rule)",
    )
    parser.add_argument(
        "-g",
        "--global",
        dest="global_",
        action="store_true",
        help="read the clients' user-level files ($HOME) instead of the current directory's",
    )
    json_flag(parser)
    dry_run_flag(parser)


def _document(plan: ImportPlan, target: Path, *, dry_run: bool) -> str:
    import json

    document = {
        "schema": 1,
        "command": "import",
        "into": str(target),
        "dry_run": dry_run,
        "items": [
            {"kind": i.kind.value, "name": i.name, "sources": list(i.sources)} for i in plan.items
        ],
        "mcps": list(plan.servers),
        "plugins": list(plan.plugins),
        "files": [f.path for f in plan.files],
        "notes": [{"kind": str(n.kind), "message": n.message} for n in plan.notes],
    }
    return json.dumps(document, indent=2, sort_keys=True) + "\n"


def _summary(plan: ImportPlan) -> str:
    from upskill.format.model import KINDS

    counts = [
        f"{n} {k.plural if n != 1 else k.value}"
        for k in KINDS
        if (n := sum(1 for i in plan.items if i.kind is k))
    ]
    servers = len(plan.servers)
    if servers:
        counts.append(f"{servers} MCP server{'s' if servers != 1 else ''}")
    if plan.plugins:
        counts.append(f"{len(plan.plugins)} plugin{'s' if len(plan.plugins) != 1 else ''}")
    return ", ".join(counts)


def run(args: argparse.Namespace, console: Console, world: World) -> int:
    from upskill.clientconf.places import places_for
    from upskill.clients import SELECTABLE_CLIENTS, parse_client
    from upskill.errors import UpskillError
    from upskill.importing.output import bundle_name
    from upskill.importing.plan import plan_import
    from upskill.importing.write import check_target, write_registry

    root = world.home if args.global_ else world.cwd
    chosen = tuple(dict.fromkeys(parse_client(c) for c in args.from_))
    clients = tuple(c for c in SELECTABLE_CLIENTS if c in chosen) if chosen else SELECTABLE_CLIENTS
    target = world.cwd / (args.into if args.into is not None else root / DEFAULT_INTO)
    plan = plan_import(places_for(root, world), clients, home=args.global_, split=args.split)
    if not plan.files:
        raise UpskillError(f"nothing to import: no client files found in {root}")
    check_target(target)
    if not args.dry_run:
        write_registry(target, plan.files)
    if args.json:
        console.json(_document(plan, target, dry_run=args.dry_run))
        return 0
    for note in plan.notes:
        console.warn(f"{note.kind}: {note.message}")
    if args.dry_run:
        for out in plan.files:
            console.data(f"would write {target / out.path}\n")
        console.data(f"would import {_summary(plan)} into {target}\n")
        return 0
    console.data(f"imported {_summary(plan)} into {target}\n")
    bundle = bundle_name(plan.items)
    console.info(
        f"review and commit {target}, then run `upskill add {target} {bundle}` to install it "
        "(files identical to what is on disk are adopted as they are)"
    )
    return 0
