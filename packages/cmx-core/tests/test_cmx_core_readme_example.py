"""The README's embedding example runs for real: a subprocess with a temp HOME."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
EXAMPLE = PACKAGE / "examples" / "companion_skill.py"


def _run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".xdg"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    return subprocess.run(
        [sys.executable, str(EXAMPLE), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=home,
        check=False,
        timeout=60,
    )


def _unchecksum(text: str) -> str:
    return re.sub(r"sha256:[0-9a-f]{64}", "sha256:<hex>", text)


def test_readme_embeds_the_example_verbatim() -> None:
    readme = (PACKAGE / "README.md").read_text()
    assert EXAMPLE.read_text() in readme


def test_first_run_installs_second_skips_then_drift_then_force(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    dest = home / ".claude/skills/acme"

    first = _run(home)
    assert first.returncode == 0, first.stderr
    assert _unchecksum(first.stdout) == (
        "Install plan for acme v1.4.0\n"
        "  scope: global\n"
        "  checksum: sha256:<hex>\n"
        f"  claude → {dest} (install)\n"
        "Installed acme v1.4.0 (global)\n"
        f"  claude → {dest} (install)\n"
    )
    assert 'metadata:\n  version: "1.4.0"\n' in (dest / "SKILL.md").read_text()
    lock = json.loads((home / ".config/context-mixer/cmx-lock.json").read_text())
    assert lock["packages"]["acme"]["version"] == "1.4.0"

    second = _run(home)
    assert second.stdout.endswith(f"  claude → {dest} (skip (up to date))\n")
    assert "Installed" not in second.stdout

    (dest / "SKILL.md").write_text("my own notes\n")
    third = _run(home)
    assert third.stdout.splitlines()[-2:] == [
        f"  claude → {dest} (skip (drifted from 1.4.0))",
        f"acme: your edits in {dest} are kept (skill drifted)",
    ]
    assert (dest / "SKILL.md").read_text() == "my own notes\n"

    forced = _run(home, "--force-skill")
    assert f"  claude → {dest} (update from 1.4.0)\n" in forced.stdout
    assert "my own notes" not in (dest / "SKILL.md").read_text()


def test_malformed_lockfile_exits_with_documented_code(tmp_path: Path) -> None:
    config = tmp_path / ".config/context-mixer"
    config.mkdir(parents=True)
    (config / "cmx-lock.json").write_text("{oops")
    proc = _run(tmp_path)
    assert proc.returncode == 3
    assert proc.stdout == ""
    assert proc.stderr.startswith(f"acme: {config / 'cmx-lock.json'}: malformed JSON")
    assert len(proc.stderr.splitlines()) == 1
