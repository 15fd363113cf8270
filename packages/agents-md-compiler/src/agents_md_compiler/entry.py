"""Console entry point: a plain `--version` or `version` answers before the CLI loads.

The full CLI imports argparse, json and the whole compiler; a version query
needs none of it, and the contract says it needs no filesystem access beyond
installed metadata. Any other argument list goes to `agents_md_compiler.cli`.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing itself costs start-up time; mypy honours the name
if TYPE_CHECKING:
    from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["--version"], ["version"]):
        from agents_md_compiler.version import installed_version

        sys.stdout.write(installed_version() + "\n")
        return 0
    from agents_md_compiler.cli import main as cli_main

    return cli_main(args)
