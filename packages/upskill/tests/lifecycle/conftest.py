"""The end-to-end CLI fixtures (`upskill_cli`) for lifecycle tests."""

from upskill_cli import cli, h, make_git_source, project, registry

__all__ = ["cli", "h", "make_git_source", "project", "registry"]
