"""Runner for the language-neutral cmx-core conformance fixtures (see FORMAT.md)."""

from cmx_core.conformance._runner import Failure, RunResult, run_directory

__all__ = ["Failure", "RunResult", "run_directory"]
