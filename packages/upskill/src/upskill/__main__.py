"""`python -m upskill` runs the same CLI as the console script."""

import sys

from upskill.cli import main

sys.exit(main())
