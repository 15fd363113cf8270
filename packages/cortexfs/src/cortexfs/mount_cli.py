"""`cortexfs-mount`: mount a backing directory as /ctx (placeholder until the ABI lands)."""

from __future__ import annotations

import argparse
import sys

from cortexfs import __version__


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cortexfs-mount")
    parser.add_argument("--version", action="version", version=f"cortexfs-mount {__version__}")
    parser.parse_args(sys.argv[1:] if argv is None else argv)
    return 0
