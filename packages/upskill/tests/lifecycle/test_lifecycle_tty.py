"""Terminal behaviour: the --source confirmation, progress redraws, colour and NO_COLOR."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

UPSKILL = str(Path(sys.executable).parent / "upskill")


def run_on_tty(args, cwd, env, answer: bytes | None = None):
    """Run with stdin and stderr on a pseudo-terminal; return (exit code, tty output)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [UPSKILL, *args], cwd=cwd, env=env, stdin=slave, stdout=subprocess.PIPE, stderr=slave
    )
    os.close(slave)
    seen = b""
    sent = False
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
        if answer is not None and not sent and b"[y/N]" in seen:
            os.write(master, answer)
            sent = True
    proc.wait(timeout=60)
    os.close(master)
    return proc.returncode, seen.decode(errors="replace")


def test_remove_source_asks_on_a_tty(cli, project, registry):
    cli.ok("add", str(registry), "--claude", cwd=project)
    label = f"local:{registry}"
    code, out = run_on_tty(["remove", "--source", label], project, cli.env, b"n\n")
    assert code == 1
    assert f"Remove 4 items installed from {label}? [y/N]" in out
    assert "aborted; nothing removed" in out
    assert (project / ".claude/rules/style.md").is_file()
    code, out = run_on_tty(["remove", "--source", label], project, cli.env, b"y\n")
    assert code == 0 and "4 items removed" in out
    assert not (project / ".claude").exists()


def test_yes_skips_the_prompt_on_a_tty(cli, project, registry):
    cli.ok("add", str(registry), "--claude", cwd=project)
    code, out = run_on_tty(["remove", "-y", "--source", f"local:{registry}"], project, cli.env)
    assert code == 0 and "[y/N]" not in out


def test_progress_redraws_and_colour_on_a_tty(cli, project, registry):
    code, out = run_on_tty(["add", str(registry), "--claude"], project, cli.env)
    assert code == 0
    assert "\r\x1b[2Krendering" in out
    assert "4 items installed for claude" in out
    code, out = run_on_tty(["add", "gitlab:x/y"], project, cli.env)
    assert code == 2
    code, out = run_on_tty(["remove", "ghost"], project, cli.env)
    assert code == 1 and "\x1b[31merror: \x1b[0mnot installed: ghost" in out
    code, out = run_on_tty(["remove", "ghost"], project, {**cli.env, "NO_COLOR": "1"})
    assert code == 1 and "\x1b[" not in out and "error: not installed: ghost" in out
    code, out = run_on_tty(["--no-color", "remove", "ghost"], project, cli.env)
    assert "\x1b[31m" not in out


def test_state_dir_is_git_ignored(cli, project, registry):
    cli.ok("add", str(registry), "--claude", cwd=project)
    assert (project / ".upskill/.gitignore").read_text().splitlines()[1:] == [
        "/.lock",
        "/journal.json",
        "/txn/",
    ]


def test_a_counter_on_a_tty_and_only_phase_lines_elsewhere(cli, project, tmp_path, h):
    """Issue 16, 7: a long run counts its items in place on a terminal; a pipe or a log
    gets each phase's one line and nothing per item."""
    many = tmp_path / "many"
    for i in range(12):
        h.write_item(many, "rule", f"r{i:02d}", f"Rule {i}.\n")
    code, out = run_on_tty(["add", str(many), "--claude"], project, cli.env)
    assert code == 0
    assert "\r\x1b[2Krendering [1/12]" in out
    assert "\r\x1b[2Krendering [12/12]\r\x1b[2Kwriting" in out
    assert "12 items installed for claude" in out
    piped = cli.ok("update", "--force", cwd=project)
    assert piped.stderr.startswith("rendering\nwriting\n")
    assert "/12]" not in piped.stderr and "\r" not in piped.stderr
    code, out = run_on_tty(["-q", "update", "--force"], project, cli.env)
    assert code == 0 and "[1/12]" not in out  # -q: no progress at all
