"""The process exit codes upskill documents (docs/upskill/lifecycle.md, "Exit codes").

A leaf: it imports nothing, so the errors module, the CLI front end and any
command can share one table without importing each other.
"""

OK = 0
ERROR = 1  # a user-facing failure (an `UpskillError`), or drift found by `doctor`
USAGE = 2  # the command line itself is wrong
INTERNAL = 70  # EX_SOFTWARE (sysexits.h): a bug in upskill, not a problem with the input
FLUSH_FAILED = 120  # what CPython itself returns when flushing stdout fails at exit
INTERRUPTED = 130  # 128 + SIGINT
