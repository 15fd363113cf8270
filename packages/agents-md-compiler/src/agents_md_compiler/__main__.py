"""`python -m agents_md_compiler` runs the same CLI as the console script."""

import sys

from agents_md_compiler.entry import main

sys.exit(main())
