"""Every agents-md-compiler case of the hostile-input campaign (issue 13), as a regression.

Each used to end in a traceback, a hang or lost evidence. Subprocess runs carry a
timeout, so a reintroduced hang fails the test instead of stalling CI.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from agents_md_compiler import installation
from agents_md_compiler.errors import MutationError
from agents_md_compiler.locking import LockTiming
from agents_md_compiler.models import sha256_hex
from agents_md_compiler.paths import advisory_lock_path, state_root
from agents_md_compiler.seams import MutationHooks

MANIFEST_HEAD = 'schema_version = 1\nbundle_id = "hostile"\ndefault_target = "out/AGENTS.md"\n'


def write_manifest(ws, body: str) -> Path:  # type: ignore[no-untyped-def]
    path = ws.root / "manifests" / "hostile.toml"
    path.write_text(body)
    return path


def run_json(ws, *argv: str):  # type: ignore[no-untyped-def]
    result = ws.run(*argv, "--format", "json")
    assert result.stdout.count(b"\n") == 1, result  # one envelope, never a traceback
    return result.code, result.json


def test_nul_in_a_module_source_path_is_invalid_source(ws) -> None:  # type: ignore[no-untyped-def]
    manifest = write_manifest(
        ws, MANIFEST_HEAD + '\n[[modules]]\nid = "core"\nsource = "../modules/co\\u0000re.md"\n'
    )
    for command in ("lock", "validate", "check", "install"):
        code, doc = run_json(ws, command, "--manifest", str(manifest))
        assert (code, doc["state"]) == (1, "INVALID_SOURCE"), command
        assert "NUL" in doc["error"]["message"]


def test_nul_in_the_default_target_is_a_target_error(ws) -> None:  # type: ignore[no-untyped-def]
    body = (
        'schema_version = 1\nbundle_id = "hostile"\ndefault_target = "out/AG\\u0000ENTS.md"\n'
        '\n[[modules]]\nid = "core"\nsource = "../modules/core.md"\n'
    )
    manifest = write_manifest(ws, body)
    assert ws.run("lock", "--manifest", str(manifest)).code == 0
    for command in ("check", "status", "install"):
        code, doc = run_json(ws, command, "--manifest", str(manifest))
        assert (code, doc["error"]["kind"]) == (1, "TargetError"), command


def test_arrays_and_inline_tables_100k_deep(ws) -> None:  # type: ignore[no-untyped-def]
    for depth in (50_000, 100_000):
        for opening, closing in (("[", "]"), ("{a=", "}")):
            value = opening * depth + ("1" if opening != "[" else "") + closing * depth
            manifest = write_manifest(ws, MANIFEST_HEAD + f"deep = {value}\n")
            code, doc = run_json(ws, "validate", "--manifest", str(manifest))
            assert (code, doc["state"]) == (1, "INVALID_MANIFEST")
            assert "nest deeper than" in doc["error"]["message"]


def test_dotted_key_with_100k_parts_is_refused_at_once(ws) -> None:  # type: ignore[no-untyped-def]
    key = ".".join(["k"] * 100_000)  # about 200 KB; tomllib alone is quadratic in the parts
    manifest = write_manifest(ws, MANIFEST_HEAD + f"{key} = 1\n")
    code, doc = run_json(ws, "check", "--manifest", str(manifest))
    assert (code, doc["state"]) == (1, "INVALID_MANIFEST")
    assert "dotted key parts" in doc["error"]["message"]


def test_dots_inside_strings_and_comments_do_not_count(ws) -> None:  # type: ignore[no-untyped-def]
    dotted = "." * 200
    body = MANIFEST_HEAD.replace('"out/AGENTS.md"', f'"out/AGENTS.md"  # {dotted}')
    body += f'\n[[modules]]\nid = "core"\nsource = "../modules/core.md"\n# {"[" * 100}\n'
    manifest = write_manifest(ws, body)
    assert ws.run("lock", "--manifest", str(manifest)).code == 0


def test_target_symlinked_to_a_fifo_never_blocks(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    fifo = ws.root / "pipe"
    os.mkfifo(fifo)
    ws.target.symlink_to(fifo)
    for command in ("check", "status", "install", "verify-codex"):
        result = ws.sub(*ws.m(command), "--format", "json")  # subprocess: a hang times out
        assert result.code == 1, command
        assert json.loads(result.stdout)["error"]["kind"] == "TargetError"
    applied = ws.sub(*ws.m("install", "--apply"))
    assert applied.code == 1 and ws.target.is_symlink()


def test_fifo_target_manifest_lock_and_source_never_block(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    os.mkfifo(ws.target)
    result = ws.sub(*ws.m("install", "--apply"), "--format", "json")
    assert (result.code, json.loads(result.stdout)["error"]["kind"]) == (1, "TargetError")
    ws.target.unlink()
    ws.lock.unlink()
    os.mkfifo(ws.lock)
    result = ws.sub(*ws.m("check"), "--format", "json")
    assert (result.code, json.loads(result.stdout)["state"]) == (1, "INVALID_LOCK")
    core = ws.root / "modules" / "core.md"
    core.unlink()
    os.mkfifo(core)
    result = ws.sub(*ws.m("check"), "--format", "json")
    assert (result.code, json.loads(result.stdout)["state"]) == (1, "INVALID_SOURCE")
    fifo_manifest = ws.root / "manifests" / "fifo.toml"
    os.mkfifo(fifo_manifest)
    result = ws.sub("check", "--manifest", str(fifo_manifest), "--format", "json")
    assert (result.code, json.loads(result.stdout)["state"]) == (1, "INVALID_MANIFEST")


def test_rollback_killed_after_restore_is_resumed(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    ws.target.write_bytes(
        b"# Agent Instructions\n\n<!-- agents-md-compiler:generated format=2 -->\nold\n"
    )
    previous = ws.target.read_bytes()
    receipt = ws.run(*ws.m("install", "--apply"), "--format", "json").json["receipt_path"]

    def killed(path: str) -> None:
        raise KeyboardInterrupt  # the process dies between the restore and its receipt

    ws.hooks = MutationHooks(after_replace=killed)
    with contextlib.suppress(KeyboardInterrupt):
        ws.run(*ws.m("rollback", "--receipt", receipt, "--apply"))
    ws.hooks = MutationHooks()
    assert ws.target.read_bytes() == previous
    assert not list(ws.state.rglob("receipts/*-rollback-*.json"))
    journal = next(ws.state.rglob("rollback-journal.json"))
    assert b"old" not in journal.read_bytes()  # identity only, never content
    status = ws.run(*ws.m("status"), "--format", "json").json
    assert status["interrupted_journal"] == str(journal)
    dry = ws.run(*ws.m("rollback", "--receipt", receipt), "--format", "json")
    assert (dry.code, dry.json["state"]) == (2, "DRIFTED")
    resumed = ws.run(*ws.m("rollback", "--receipt", receipt, "--apply"), "--format", "json")
    assert (resumed.code, resumed.json["state"], resumed.json["ok"]) == (0, "DRIFTED", True)
    written = Path(resumed.json["receipt_written"])
    body = json.loads(written.read_bytes())
    assert body["operation"] == "rollback"
    assert body["restored"]["sha256"] == sha256_hex(previous)
    assert body["source_receipt"]["path"] == receipt
    assert not journal.exists() and ws.target.read_bytes() == previous
    again = ws.run(*ws.m("rollback", "--receipt", receipt, "--apply"), "--format", "json")
    assert again.code == 3 and again.json["state"] == "CONCURRENT_CHANGE"  # done is done


def test_rollback_of_a_created_target_killed_after_the_move_is_resumed(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    receipt = ws.run(*ws.m("install", "--apply"), "--format", "json").json["receipt_path"]
    ws.hooks = MutationHooks(after_replace=lambda path: (_ for _ in ()).throw(KeyboardInterrupt))
    with contextlib.suppress(KeyboardInterrupt):
        ws.run(*ws.m("rollback", "--receipt", receipt, "--apply"))
    ws.hooks = MutationHooks()
    assert not ws.target.exists()
    resumed = ws.run(*ws.m("rollback", "--receipt", receipt, "--apply"), "--format", "json")
    assert (resumed.code, resumed.json["state"]) == (0, "MISSING")
    assert Path(resumed.json["preserved_path"]).is_file()


KILLED_HOLDER = """
import os, signal, sys
sys.path.insert(0, sys.argv[2])
from agents_md_compiler.locking import advisory_lock
with advisory_lock(sys.argv[1]):
    os.kill(os.getpid(), signal.SIGKILL)
"""


def test_advisory_lock_of_a_killed_holder_is_broken(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    lock_file = advisory_lock_path(state_root(ws.env), str(ws.target))
    source_root = str(Path(installation.__file__).parents[1])
    done = subprocess.run(
        [sys.executable, "-c", KILLED_HOLDER, lock_file, source_root], check=False, timeout=60
    )
    assert done.returncode == -signal.SIGKILL
    holder = json.loads(Path(lock_file).read_text())
    assert type(holder["pid"]) is int and holder["pid"] != os.getpid()  # left behind
    ws.timing = LockTiming(poll_seconds=0.01, timeout_seconds=2.0)
    result = ws.run(*ws.m("install", "--apply"), "--format", "json")
    assert result.code == 0, result.stderr
    assert not Path(lock_file).exists()


def test_lock_of_a_live_reference_style_holder_is_respected(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    lock_file = Path(advisory_lock_path(state_root(ws.env), str(ws.target)))
    lock_file.parent.mkdir(parents=True, exist_ok=True)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        lock_file.write_text(json.dumps({"acquired_at": "held", "pid": sleeper.pid}))
        ws.timing = LockTiming(poll_seconds=0.01, timeout_seconds=0.1)
        result = ws.run(*ws.m("install", "--apply"), "--format", "json")
        assert result.code == 1 and result.json["error"]["kind"] == "MutationError"
        assert f"pid {sleeper.pid}" in result.json["error"]["message"]
        assert lock_file.exists() and not ws.target.exists()
    finally:
        sleeper.kill()
        sleeper.wait()
    result = ws.run(*ws.m("install", "--apply"), "--format", "json")  # the holder is dead now
    assert result.code == 0


def test_temp_files_left_by_killed_writers_are_cleaned(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], check=True,
                          capture_output=True, text=True)  # fmt: skip
    out = ws.target.parent
    orphan = out / f".agents-md-compiler-{dead.stdout.strip()}-abc123.tmp"
    live = out / f".agents-md-compiler-{os.getpid()}-def456.tmp"
    old_reference = out / ".agents-md-compiler-old0ne.tmp"
    fresh_reference = out / ".agents-md-compiler-fresh1.tmp"
    for path in (orphan, live, old_reference, fresh_reference):
        path.write_bytes(b"partial")
    two_hours_ago = time.time() - 7200
    os.utime(old_reference, (two_hours_ago, two_hours_ago))
    result = ws.run(*ws.m("install", "--apply"))
    assert result.code == 0
    assert not orphan.exists() and not old_reference.exists()
    assert live.exists() and fresh_reference.exists()
    assert f"removed a temporary file a killed run left: {orphan}" in result.stderr


def test_clean_eacces_on_the_target_leaves_no_journal(ws, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    real_write = installation.atomic_write

    def refuse_target(path: str, data: bytes, mode: int = 0o600) -> None:
        if path == str(ws.target):
            raise MutationError("writing the temporary file failed (Permission denied)")
        real_write(path, data, mode)

    monkeypatch.setattr(installation, "atomic_write", refuse_target)
    code, doc = run_json(ws, *ws.m("install", "--apply"))
    assert (code, doc["error"]["kind"]) == (1, "MutationError")
    assert not list(ws.state.rglob("journal.json"))
    monkeypatch.undo()
    status = ws.run(*ws.m("status"), "--format", "json").json
    assert status["interrupted_journal"] is None and status["state"] == "MISSING"


def test_eacces_on_a_real_read_only_directory(ws, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """As a non-root user the write itself is refused; as root the directory is still
    written (root ignores modes), so only the no-journal half is asserted then."""
    ws.locked()
    out = ws.target.parent
    out.chmod(0o555)
    try:
        code, doc = run_json(ws, *ws.m("install", "--apply"))
    finally:
        out.chmod(0o755)
    if os.geteuid() != 0:
        assert (code, doc["error"]["kind"]) == (1, "MutationError")
        assert not ws.target.exists()
    assert not list(ws.state.rglob("journal.json"))
