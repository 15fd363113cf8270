"""The end-to-end CLI fixtures (`upskill_cli`) for import tests."""

from upskill_cli import cli, h, project

__all__ = ["cli", "h", "project"]
