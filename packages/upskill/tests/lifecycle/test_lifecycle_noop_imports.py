"""A no-op `update` loads no parser, formatter or completion library (issue 19, 5).

The fast path answers "Already up to date." from the lockfile and the saved state;
importing ruamel, PyYAML, mdformat or markdown-it would put tens of milliseconds on
every run of a command teams put in hooks and CI.
"""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("ruamel", "yaml", "mdformat", "mdformat_gfm", "markdown_it", "argcomplete", "pathspec")
PROBE = (
    "import sys; from upskill.cli import main; code = main(['update']); "
    f"print(code, sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))"
)


def test_a_noop_update_imports_no_heavy_module(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), cwd=project)
    cli.ok("update", cwd=project)  # the first update saves the fast-path state
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=project,
        env=cli.env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stderr == "Already up to date.\n"
    assert done.stdout == "0 []\n"
