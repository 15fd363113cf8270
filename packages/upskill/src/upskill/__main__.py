"""`python -m upskill` runs the same CLI as the console script."""

from upskill.cli import entry

entry()
