"""Command-line entry point (placeholder until the contract lands)."""

from __future__ import annotations

import argparse
import sys

from agents_md_compiler import __version__


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="agents-md-compiler")
    parser.add_argument("--version", action="version", version=f"agents-md-compiler {__version__}")
    parser.parse_args(sys.argv[1:] if argv is None else argv)
    return 0
