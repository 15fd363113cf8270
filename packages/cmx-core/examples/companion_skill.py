"""acme: a CLI tool that installs its companion skill on first run.

Run it twice: the first run installs the skill into every agent platform in use
(Claude only on a fresh machine), the second run is a clean skip. Edit the
installed SKILL.md and run again: the edit is kept and reported as drift.
`--force-skill` overwrites local edits (and downgrades a newer install).
"""

from __future__ import annotations

import sys

from cmx_core import (
    BundledSkill,
    CmxError,
    Scope,
    SkillFile,
    SkillInstaller,
    ToolIdentity,
)

TOOL = ToolIdentity("acme", "1.4.0")

SKILL_MD = """\
---
name: acme
description: Use the acme CLI to turn CSV exports into release notes.
---
# acme

Run `acme notes <export.csv>` and paste the output into the release.
"""

BUNDLE = BundledSkill.from_files(
    [
        SkillFile.text("SKILL.md", SKILL_MD),
        SkillFile.text("scripts/acme-help.sh", "#!/bin/sh\nexec acme --help\n"),
    ]
)


def ensure_companion_skill(installer: SkillInstaller, *, force: bool) -> None:
    """Show the plan, apply it when it writes something, then report drift."""
    plan = installer.plan(BUNDLE, Scope.GLOBAL, force=force)
    print(plan, end="")
    if plan.is_blocked:
        print("acme: a newer acme skill is installed; leaving it (use --force-skill)")
        return
    if plan.will_write:
        print(installer.apply(BUNDLE, plan), end="")
    for target in installer.status(Scope.GLOBAL).targets:
        if target.drifted:
            print(f"acme: your edits in {target.dest_dir} are kept (skill drifted)")


def main(argv: list[str]) -> int:
    installer = SkillInstaller(TOOL)  # real home, working directory and clock
    try:
        ensure_companion_skill(installer, force="--force-skill" in argv)
    except CmxError as err:
        print(f"acme: {err}", file=sys.stderr)
        return err.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
