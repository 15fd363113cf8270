"""End-to-end: the installed console script and `python -m` in a temp tree with a temp HOME."""

from __future__ import annotations

import hashlib
import json
import shutil
import stat
from importlib.metadata import version
from pathlib import Path

GOLDEN = Path(__file__).parent / "golden"
RENDERED = (GOLDEN / "minimal.AGENTS.md").read_bytes()


def test_console_script_version_and_help(ws) -> None:  # type: ignore[no-untyped-def]
    expected = f"{version('agents-md-compiler')}\n".encode()
    for argv in (["--version"], ["version"]):
        result = ws.sub(*argv, console=True)
        assert (result.code, result.stdout, result.stderr) == (0, expected, "")
    help_result = ws.sub("--help", console=True)
    assert help_result.code == 0 and b"verify-codex" in help_result.stdout
    sub_help = ws.sub("install", "--help")
    assert sub_help.code == 0 and b"--replace-unmanaged" in sub_help.stdout
    usage = ws.sub("check", "--nope")
    assert (usage.code, usage.stdout) == (1, b"")
    assert usage.stderr.startswith("usage: agents-md-compiler ")  # argparse's, as the reference
    assert usage.stderr.endswith("agents-md-compiler: error: unrecognized arguments: --nope\n")


def test_full_lifecycle(ws) -> None:  # type: ignore[no-untyped-def]
    cwd = ws.manifest.parent
    shutil.copy(ws.manifest, cwd / "agents-md.toml")
    lock = cwd / "agents-md.toml.lock.json"

    missing = ws.sub("check", cwd=cwd)
    assert (missing.code, missing.stdout) == (2, b"LOCK_MISSING\n")
    locked = ws.sub("lock", "--format", "json", cwd=cwd, console=True)
    assert locked.code == 0 and json.loads(locked.stdout)["written"] is True
    assert hashlib.sha256(lock.read_bytes()).hexdigest() == (
        "9a12daad4c2c91c632ef11d550fbb22c0ae1d8aee4f0627feb387e8630bb1dfc"
    )
    rendered = ws.sub("render", cwd=cwd, console=True)
    assert (rendered.code, rendered.stdout, rendered.stderr) == (0, RENDERED, "")
    assert ws.sub("check", cwd=cwd).stdout == b"MISSING\n"
    dry = ws.sub("install", cwd=cwd)
    assert dry.code == 2 and not ws.target.exists()
    applied = ws.sub("install", "--apply", "--format", "json", cwd=cwd, console=True)
    assert applied.code == 0
    doc = json.loads(applied.stdout)
    assert doc["state"] == "CURRENT" and doc["applied"] is True
    assert ws.target.read_bytes() == RENDERED
    assert stat.S_IMODE(ws.target.stat().st_mode) == 0o600
    assert Path(doc["receipt_path"]).is_file()
    assert str(ws.state) in doc["receipt_path"]
    current = ws.sub("check", "--quiet", cwd=cwd)
    assert (current.code, current.stdout, current.stderr) == (0, b"CURRENT\n", "")
    status = json.loads(ws.sub("status", "--format", "json", cwd=cwd).stdout)
    assert status["receipt_count"] == 1 and status["state"] == "CURRENT"

    ws.target.write_bytes(RENDERED + b"local\n")
    drifted = ws.sub("check", cwd=cwd)
    assert (drifted.code, drifted.stdout) == (2, b"DRIFTED\n")
    override = ws.target.parent / "AGENTS.override.md"
    override.write_text("# Override\n")
    shadowed = ws.sub("install", "--apply", cwd=cwd)
    assert (shadowed.code, shadowed.stdout) == (3, b"")  # a refusal is an error: stderr only
    assert shadowed.stderr.startswith("agents-md-compiler: install: SHADOWED: ")
    override.unlink()
    reinstalled = json.loads(ws.sub("install", "--apply", "--format", "json", cwd=cwd).stdout)
    assert reinstalled["previous_state"] == "MANAGED"
    rollback = ws.sub("rollback", "--receipt", reinstalled["receipt_path"], "--apply", cwd=cwd)
    assert (rollback.code, rollback.stdout) == (0, b"DRIFTED\n")
    assert ws.target.read_bytes() == RENDERED + b"local\n"

    (cwd / "agents-md.toml").write_bytes((cwd / "agents-md.toml").read_bytes() + b"# note\n")
    stale = ws.sub("lock", "--check", cwd=cwd)
    assert (stale.code, stale.stdout) == (2, b"LOCK_STALE\n")


def test_error_exit_codes(ws) -> None:  # type: ignore[no-untyped-def]
    invalid = ws.root / "manifests" / "invalid" / "unknown-top-key.toml"
    result = ws.sub("validate", "--manifest", str(invalid), "--format", "json")
    assert result.code == 1
    doc = json.loads(result.stdout)
    assert doc["state"] == "INVALID_MANIFEST" and "strict" in doc["error"]["message"]
    assert ws.sub(*ws.m("lock")).code == 0
    ws.lock.write_text("{}")
    bad_lock = ws.sub(*ws.m("check"))
    assert bad_lock.code == 1 and "INVALID_LOCK" in bad_lock.stderr
    assert ws.sub(*ws.m("lock")).code == 0
    ws.target.write_text("# Mine\n")
    unmanaged = ws.sub(*ws.m("install", "--apply"))
    assert (unmanaged.code, unmanaged.stdout) == (3, b"")
    assert unmanaged.stderr.startswith("agents-md-compiler: install: UNMANAGED_TARGET: ")
    raced = ws.sub(
        *ws.m("install", "--apply", "--replace-unmanaged", "--expect-target-sha256", "a" * 64),
        "--format",
        "json",
    )
    assert raced.code == 3 and json.loads(raced.stdout)["state"] == "UNMANAGED_TARGET"
    assert ws.target.read_text() == "# Mine\n"
    (ws.root / "modules" / "core.md").write_bytes(b"# Core\n\n")
    source = ws.sub(*ws.m("check"))
    assert source.code == 1 and source.stdout == b""
    assert source.stderr == (
        "agents-md-compiler: check: INVALID_SOURCE: ../modules/core.md: "
        "source must not end with a blank line\n"
    )


def test_verify_codex_subprocess(ws) -> None:  # type: ignore[no-untyped-def]
    assert ws.sub(*ws.m("lock")).code == 0
    assert ws.sub(*ws.m("install", "--apply")).code == 0
    ws.fake_codex()
    ok = ws.sub(*ws.m("verify-codex"), "--format", "json", console=True)
    assert ok.code == 0 and json.loads(ok.stdout)["markers_found"] == 5
    ws.env["FAKE_CODEX_MODE"] = "not-json"
    failed = ws.sub(*ws.m("verify-codex"))
    assert (failed.code, failed.stdout) == (1, b"RUNTIME_UNVERIFIED\n")


def test_legacy_manifest_and_init(ws) -> None:  # type: ignore[no-untyped-def]
    project = ws.root / "project"
    created = ws.sub(
        "init", "--directory", str(project), "--target", "AGENTS.md", "--format", "json"
    )
    assert created.code == 0
    doc = json.loads(created.stdout)
    assert doc["target_path"] == str(ws.root / "AGENTS.md")
    next_lock = ws.sub(*doc["next_command"][1:], console=True)
    assert next_lock.code == 0
    assert ws.sub("validate", cwd=project).stdout == b"CURRENT\n"
    (project / "agents-md.toml").rename(project / "global-agents.toml")
    legacy = ws.sub("lock", "--format", "json", cwd=project)
    assert json.loads(legacy.stdout)["lock_path"] == str(project / "global-agents.toml.lock.json")
