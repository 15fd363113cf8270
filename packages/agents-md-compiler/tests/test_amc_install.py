"""install and rollback: dry runs, refusals, receipts, backups, modes, concurrency, recovery."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from agents_md_compiler.models import sha256_hex
from agents_md_compiler.seams import MutationHooks

GOLDEN = Path(__file__).parent / "golden"
RENDERED = (GOLDEN / "minimal.AGENTS.md").read_bytes()
RENDERED_SHA = sha256_hex(RENDERED)


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def receipts(ws) -> list[Path]:  # type: ignore[no-untyped-def]
    return sorted(ws.state.rglob("receipts/*.json"))


def test_dry_run_writes_nothing(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    result = ws.run(*ws.m("install"), "--format", "json")
    assert result.code == 2
    doc = result.json
    assert doc["state"] == "MISSING" and doc["applied"] is False and doc["ok"] is False
    assert doc["receipt_path"] is None and doc["backup_path"] is None
    assert doc["previous_state"] == "MISSING" and doc["target_mode"] == "0600"
    assert not ws.target.exists()
    assert ws.files() == []
    assert result.stderr == ""  # JSON mode: the plan is in the envelope
    assert str(ws.target) in doc["plan"]["writes"] and str(ws.manifest) in doc["plan"]["reads"]
    text = ws.run(*ws.m("install"))
    assert (text.code, text.stdout) == (2, b"MISSING\n")
    lines = text.stderr.splitlines()
    assert lines[0] == "agents-md-compiler: dry run; nothing written. Re-run with --apply."
    # Every path an --apply would read and write is shown (the manifest is trusted input).
    shown = [line.rsplit(" ", 1)[-1] for line in lines[1:]]
    for path in (ws.manifest, ws.lock, ws.root / "modules" / "core.md", ws.target):
        assert str(path) in shown
    assert any("/receipts/" in line for line in lines) and any(".lock" in p for p in shown)
    assert ws.files() == []
    quiet = ws.run(*ws.m("install"), "--quiet")
    assert quiet.stderr == ""


def test_apply_creates_target_receipt_and_last_installed(ws, assert_schema) -> None:  # type: ignore[no-untyped-def]
    doc = ws.installed()
    assert doc["state"] == "CURRENT" and doc["applied"] is True and doc["ok"] is True
    assert ws.target.read_bytes() == RENDERED and mode_of(ws.target) == 0o600
    assert doc["target_sha256"] is None and doc["backup_path"] is None  # digest before the write
    receipt = Path(doc["receipt_path"])
    assert receipt.parent.name == "receipts"
    deployment = receipt.parent.parent
    assert (
        deployment.parent
        == ws.state / "agents-md-compiler" / "_v2" / "deployments" / "fixture-bundle"
    )
    assert deployment.name == sha256_hex(str(ws.target).encode())
    for directory in (
        deployment,
        deployment / "receipts",
        deployment / "backups",
        deployment / "preserved",
    ):
        assert mode_of(directory) == 0o700
    assert mode_of(ws.state / "agents-md-compiler") == 0o700
    assert mode_of(receipt) == 0o600
    body = json.loads(receipt.read_bytes())
    assert_schema(body, "receipt-v1.schema.json")
    assert receipt.read_bytes() == (json.dumps(body, indent=2, sort_keys=True) + "\n").encode()
    assert body["previous_target"] == {
        "state": "MISSING",
        "sha256": None,
        "size_bytes": None,
        "mode": None,
    }
    assert body["installed"] == {"sha256": RENDERED_SHA, "size_bytes": 982, "mode": "0600"}
    assert body["target_path"] == {"lexical": "out/AGENTS.md", "resolved": str(ws.target)}
    assert receipt.name.endswith(f"-install-{body['operation_id']}.json")
    last = json.loads((deployment / "last-installed.json").read_bytes())
    assert last["receipt"] == receipt.name and last["installed_sha256"] == RENDERED_SHA
    assert (
        last["installed_size_bytes"] == 982 and mode_of(deployment / "last-installed.json") == 0o600
    )
    assert not list((ws.state / "agents-md-compiler" / "_v2" / "locks").iterdir())
    assert not (deployment / "journal.json").exists()
    assert ws.run(*ws.m("check")).stdout == b"CURRENT\n"


def test_reinstall_current_target_backs_up_and_records(ws) -> None:  # type: ignore[no-untyped-def]
    ws.installed()
    dry = ws.run(*ws.m("install"))
    assert (dry.code, dry.stdout) == (0, b"CURRENT\n")
    doc = ws.run(*ws.m("install", "--apply"), "--format", "json").json
    assert doc["previous_state"] == "MANAGED" and doc["backup_sha256"] == RENDERED_SHA
    assert Path(doc["backup_path"]).read_bytes() == RENDERED
    assert Path(doc["backup_path"]).name.endswith(f".{RENDERED_SHA}.bak")
    status = ws.run(*ws.m("status"), "--format", "json").json
    assert status["receipt_count"] == 2 and status["backup_count"] == 1
    assert status["latest_receipt"] == doc["receipt_path"]


def test_drifted_target_upgrade_keeps_mode(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    old = RENDERED.replace(b"# Agent Instructions", b"# Global Agent Instructions", 1)
    old = old.replace(b"format=2", b"format=1")
    ws.target.write_bytes(old)
    ws.target.chmod(0o644)
    dry = ws.run(*ws.m("install"), "--format", "json")
    assert (dry.code, dry.json["state"], dry.json["target_mode"]) == (2, "DRIFTED", "0644")
    assert dry.json["previous_state"] == "MANAGED"
    doc = ws.run(*ws.m("install", "--apply"), "--format", "json").json
    assert doc["state"] == "CURRENT" and mode_of(ws.target) == 0o644
    assert (
        Path(doc["backup_path"]).read_bytes() == old and mode_of(Path(doc["backup_path"])) == 0o600
    )
    body = json.loads(Path(doc["receipt_path"]).read_bytes())
    assert body["previous_target"]["mode"] == "0644" and body["installed"]["mode"] == "0644"


def test_unmanaged_target_needs_both_flags(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    original = b"# Hand written\n\nKeep me.\n"
    ws.target.write_bytes(original)
    for argv in (["install"], ["install", "--apply"], ["install", "--replace-unmanaged"]):
        result = ws.run(*ws.m(*argv), "--format", "json")
        assert (result.code, result.json["state"]) == (3, "UNMANAGED_TARGET")
        assert result.json["error"]["kind"] == "UnmanagedTargetError"
    assert ws.target.read_bytes() == original and ws.files() == []
    digest = sha256_hex(original)
    wrong = ws.run(
        *ws.m("install", "--apply", "--replace-unmanaged", "--expect-target-sha256", "0" * 64)
    )
    assert wrong.code == 3 and "UNMANAGED_TARGET" in wrong.stderr
    adopt = [*ws.m("install", "--replace-unmanaged", "--expect-target-sha256", digest)]
    dry = ws.run(*adopt, "--format", "json")
    assert (dry.code, dry.json["state"], dry.json["applied"]) == (2, "DRIFTED", False)
    assert ws.target.read_bytes() == original
    doc = ws.run(*adopt, "--apply", "--format", "json").json
    assert doc["state"] == "CURRENT" and doc["previous_state"] == "UNMANAGED"
    assert Path(doc["backup_path"]).read_bytes() == original
    assert ws.target.read_bytes() == RENDERED


def test_install_refusals_write_nothing(ws) -> None:  # type: ignore[no-untyped-def]
    lock_missing = ws.run(*ws.m("install", "--apply"))
    assert (lock_missing.code, lock_missing.stdout) == (2, b"LOCK_MISSING\n")
    ws.locked()
    override = ws.target.parent / "AGENTS.override.md"
    override.write_text("# Override\n")
    shadowed = ws.run(*ws.m("install", "--apply"), "--format", "json")
    assert (shadowed.code, shadowed.json["state"]) == (3, "SHADOWED")
    override.unlink()
    ws.target.symlink_to(ws.root / "elsewhere.md")
    link = ws.run(*ws.m("install", "--apply"), "--format", "json")
    assert link.code == 1 and link.json["state"] is None
    assert (
        link.json["error"]["kind"] == "TargetError"
        and "symbolic link" in link.json["error"]["message"]
    )
    ws.target.unlink()
    no_parent = ws.run(*ws.m("install", "--apply"), "--target", str(ws.root / "nope" / "AGENTS.md"))
    assert no_parent.code == 1 and "parent directory" in no_parent.stderr
    assert not ws.target.exists() and ws.files() == []


def test_concurrent_change_between_check_and_write(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    ws.target.write_bytes(RENDERED + b"drift\n")

    def meddle(path: str) -> None:
        Path(path).write_bytes(b"someone else wrote this\n")

    ws.hooks = MutationHooks(before_recheck=meddle)
    result = ws.run(*ws.m("install", "--apply"), "--format", "json")
    assert (result.code, result.json["state"]) == (3, "CONCURRENT_CHANGE")
    assert result.json["error"]["kind"] == "ConcurrentChangeError"
    assert ws.target.read_bytes() == b"someone else wrote this\n"
    assert receipts(ws) == [] and not list(ws.state.rglob("*.bak"))


def test_concurrent_creation_of_missing_target(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    ws.hooks = MutationHooks(before_recheck=lambda path: Path(path).write_text("new\n"))
    result = ws.run(*ws.m("install", "--apply"))
    assert result.code == 3 and ws.target.read_text() == "new\n"


def fail_after_replace(path: str) -> None:
    raise OSError(5, "Input/output error")


def test_failure_after_replace_restores_previous_target(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    previous = RENDERED + b"old local bytes\n"
    ws.target.write_bytes(previous)
    ws.target.chmod(0o640)
    ws.hooks = MutationHooks(after_replace=fail_after_replace)
    result = ws.run(*ws.m("install", "--apply"), "--format", "json")
    assert result.code == 1 and result.json["state"] is None
    error = result.json["error"]
    assert error["kind"] == "MutationError"
    assert "Input/output error" in error["message"]
    assert "recovery verified: the previous target was restored" in error["message"]
    assert ws.target.read_bytes() == previous and mode_of(ws.target) == 0o640
    preserved = list(ws.state.rglob("preserved/*-failed-install-*.generated"))
    assert len(preserved) == 1 and preserved[0].read_bytes() == RENDERED
    assert preserved[0].name.endswith(f".{RENDERED_SHA}.generated")
    assert receipts(ws) == []
    assert len(list(ws.state.rglob("backups/*.bak"))) == 1
    assert not list(ws.state.rglob("journal.json"))


def test_failure_after_replace_removes_created_target(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    ws.hooks = MutationHooks(after_replace=fail_after_replace)
    result = ws.run(*ws.m("install", "--apply"))
    assert result.code == 1
    assert "recovery verified: the created target was removed" in result.stderr
    assert not ws.target.exists()
    assert len(list(ws.state.rglob("preserved/*.generated"))) == 1


def test_postcondition_failure_triggers_recovery(ws, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    ws.target.write_bytes(RENDERED + b"x\n")
    ws.hooks = MutationHooks(after_replace=lambda path: Path(path).write_bytes(b"corrupted\n"))
    result = ws.run(*ws.m("install", "--apply"))
    assert result.code == 1 and "postcondition failed" in result.stderr
    assert ws.target.read_bytes() == RENDERED + b"x\n"


def test_receipt_write_failure_marks_receipt_failed(ws, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from agents_md_compiler import installation

    ws.locked()
    real = installation.atomic_write

    def flaky(path: str, data: bytes, mode: int = 0o600) -> None:
        real(path, data, mode)
        if path.endswith("last-installed.json"):
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(installation, "atomic_write", flaky)
    result = ws.run(*ws.m("install", "--apply"))
    assert result.code == 1 and "No space left on device" in result.stderr
    assert not ws.target.exists()
    assert receipts(ws) == [] and len(list(ws.state.rglob("receipts/*.json.failed"))) == 1


def install_over_drift(ws) -> tuple[bytes, dict]:  # type: ignore[no-untyped-def, type-arg]
    ws.locked()
    previous = RENDERED + b"earlier local edit\n"
    ws.target.write_bytes(previous)
    ws.target.chmod(0o644)
    doc = ws.run(*ws.m("install", "--apply"), "--format", "json").json
    assert doc["state"] == "CURRENT"
    return previous, doc


def test_rollback_restores_backup(ws, assert_schema) -> None:  # type: ignore[no-untyped-def]
    previous, doc = install_over_drift(ws)
    receipt = doc["receipt_path"]
    dry = ws.run(*ws.m("rollback", "--receipt", receipt), "--format", "json")
    assert (dry.code, dry.json["state"], dry.json["applied"]) == (2, "DRIFTED", False)
    assert dry.json["receipt_written"] is None and ws.target.read_bytes() == RENDERED
    applied = ws.run(*ws.m("rollback", "--receipt", receipt, "--apply"), "--format", "json")
    assert applied.code == 0
    out = applied.json
    assert out["ok"] is True and out["state"] == "DRIFTED" and out["applied"] is True
    assert out["restored_sha256"] == sha256_hex(previous) and out["preserved_path"] is None
    assert out["receipt_path"] == receipt
    assert ws.target.read_bytes() == previous and mode_of(ws.target) == 0o644
    written = Path(out["receipt_written"])
    assert written.name.split("-")[1] == "rollback" and mode_of(written) == 0o600
    body = json.loads(written.read_bytes())
    assert_schema(body, "receipt-v1.schema.json")
    assert body["source_receipt"]["path"] == receipt
    assert body["restored"] == {
        "sha256": sha256_hex(previous),
        "size_bytes": len(previous),
        "mode": "0644",
    }
    again = ws.run(*ws.m("rollback", "--receipt", receipt, "--apply"))
    assert again.code == 3 and "CONCURRENT_CHANGE" in again.stderr


def test_rollback_of_created_target_preserves_it(ws) -> None:  # type: ignore[no-untyped-def]
    doc = ws.installed()
    dry = ws.run(*ws.m("rollback", "--receipt", doc["receipt_path"]))
    assert (dry.code, dry.stdout) == (2, b"MISSING\n")
    result = ws.run(
        *ws.m("rollback", "--receipt", doc["receipt_path"], "--apply"), "--format", "json"
    )
    assert (result.code, result.json["state"], result.json["ok"]) == (0, "MISSING", True)
    preserved = Path(result.json["preserved_path"])
    assert preserved.read_bytes() == RENDERED and preserved.name.endswith(
        f".{RENDERED_SHA}.generated"
    )
    assert result.json["restored_sha256"] is None and not ws.target.exists()
    text = ws.run(*ws.m("install", "--apply"))
    assert text.code == 0


def test_rollback_refuses_changed_target(ws) -> None:  # type: ignore[no-untyped-def]
    doc = ws.installed()
    ws.target.write_bytes(RENDERED + b"edited after install\n")
    result = ws.run(
        *ws.m("rollback", "--receipt", doc["receipt_path"], "--apply"), "--format", "json"
    )
    assert (result.code, result.json["state"]) == (3, "CONCURRENT_CHANGE")
    assert ws.target.read_bytes() == RENDERED + b"edited after install\n"


def test_rollback_concurrent_change_under_lock(ws) -> None:  # type: ignore[no-untyped-def]
    _, doc = install_over_drift(ws)
    ws.hooks = MutationHooks(before_recheck=lambda path: Path(path).write_text("raced\n"))
    result = ws.run(*ws.m("rollback", "--receipt", doc["receipt_path"], "--apply"))
    assert result.code == 3 and ws.target.read_text() == "raced\n"
    assert len(receipts(ws)) == 1


def rewrite_receipt(path: Path, **changes: object) -> None:
    body = json.loads(path.read_bytes())
    body.update(changes)
    path.write_text(json.dumps(body, indent=2, sort_keys=True) + "\n")


def test_rollback_receipt_validation(ws) -> None:  # type: ignore[no-untyped-def]
    _, doc = install_over_drift(ws)
    receipt = Path(doc["receipt_path"])
    outside = ws.root / "copy.json"
    outside.write_bytes(receipt.read_bytes())
    cases: list[tuple[Path, str]] = [(outside, "not under the expected state root")]
    link = receipt.parent / "link.json"
    link.symlink_to(receipt)
    cases.append((link, "receipt is a symbolic link"))
    bad_json = receipt.parent / "bad.json"
    bad_json.write_text("{")
    cases.append((bad_json, "receipt is not valid JSON"))
    for name, changes, problem in (
        ("opid.json", {"operation_id": "XYZ"}, "operation_id is malformed"),
        (
            "version.json",
            {"receipt_schema_version": True},
            "receipt_schema_version must be the integer 1",
        ),
        ("operation.json", {"operation": "rollback"}, "operation must be install"),
        ("bundle.json", {"bundle_id": "other-bundle"}, "bundle_id 'other-bundle' does not match"),
        (
            "target.json",
            {"target_path": {"lexical": "x", "resolved": "/x/AGENTS.md"}},
            "does not match the selected target",
        ),
        ("extra.json", {"extra": 1}, "unexpected or missing keys"),
    ):
        crafted = receipt.parent / name
        crafted.write_bytes(receipt.read_bytes())
        rewrite_receipt(crafted, **changes)
        cases.append((crafted, problem))
    backup = dict(json.loads(receipt.read_bytes())["backup"])
    escaped = receipt.parent / "escape.json"
    escaped.write_bytes(receipt.read_bytes())
    rewrite_receipt(escaped, backup={**backup, "path": str(ws.root / "evil.bak")})
    cases.append((escaped, "backup path escapes the expected state root"))
    Path(backup["path"]).write_bytes(b"tampered\n")
    cases.append((receipt, "backup content does not match its recorded digest"))
    for path, problem in cases:
        result = ws.run(*ws.m("rollback", "--receipt", str(path), "--apply"), "--format", "json")
        assert result.code == 1, path
        assert result.json["state"] is None and result.json["error"]["kind"] == "ReceiptError"
        assert problem in result.json["error"]["message"], (path, result.json)
    assert ws.target.read_bytes() == RENDERED


def test_rollback_accepts_legacy_receipt_root(ws) -> None:  # type: ignore[no-untyped-def]
    previous, doc = install_over_drift(ws)
    receipt = Path(doc["receipt_path"])
    legacy = ws.state / "agents-md-compiler" / "fixture-bundle"
    (legacy / "receipts").mkdir(parents=True)
    (legacy / "backups").mkdir()
    old_backup = Path(doc["backup_path"])
    moved_backup = legacy / "backups" / old_backup.name
    moved_backup.write_bytes(old_backup.read_bytes())
    legacy_receipt = legacy / "receipts" / receipt.name
    legacy_receipt.write_bytes(receipt.read_bytes())
    body = json.loads(receipt.read_bytes())
    rewrite_receipt(legacy_receipt, backup={**body["backup"], "path": str(moved_backup)})
    result = ws.run(
        *ws.m("rollback", "--receipt", str(legacy_receipt), "--apply"), "--format", "json"
    )
    assert result.code == 0 and ws.target.read_bytes() == previous
    assert Path(result.json["receipt_written"]).parent == receipt.parent


def test_recovery_reports_failure_when_backup_is_damaged(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    previous = RENDERED + b"previous\n"
    ws.target.write_bytes(previous)

    def damage_backup_then_fail(path: str) -> None:
        for backup in ws.state.rglob("backups/*.bak"):
            backup.write_bytes(b"damaged\n")
        raise OSError(5, "Input/output error")

    ws.hooks = MutationHooks(after_replace=damage_backup_then_fail)
    result = ws.run(*ws.m("install", "--apply"), "--format", "json")
    assert result.code == 1
    assert (
        "recovery FAILED: the backup no longer matches its digest"
        in result.json["error"]["message"]
    )
    assert len(list(ws.state.rglob("preserved/*-failed-install-*.generated"))) == 1


def test_rollback_with_missing_backup_is_refused(ws) -> None:  # type: ignore[no-untyped-def]
    _, doc = install_over_drift(ws)
    Path(doc["backup_path"]).unlink()
    result = ws.run(*ws.m("rollback", "--receipt", doc["receipt_path"], "--apply"))
    assert result.code == 1 and "receipt backup file does not exist" in result.stderr
    assert ws.target.read_bytes() == RENDERED


def test_symlinked_target_is_refused_by_every_command(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    real = ws.root / "real-AGENTS.md"
    real.write_bytes(RENDERED)
    ws.target.symlink_to(real)
    for command in ("check", "status", "install", "verify-codex"):
        result = ws.run(*ws.m(command), "--format", "json")
        assert (result.code, result.json["state"]) == (1, None), command
        assert result.json["error"]["kind"] == "TargetError"
        assert "symbolic link" in result.json["error"]["message"]
    assert ws.run(*ws.m("install", "--apply")).code == 1
    assert ws.target.is_symlink() and real.read_bytes() == RENDERED


def test_os_error_is_reported_as_io_error(ws, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from agents_md_compiler import cmd_static

    def refuse(path: str, data: bytes, mode: int = 0o600) -> None:
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(cmd_static, "atomic_create", refuse)
    out = ws.root / "out.md"
    result = ws.run(*ws.m("render"), "--output", str(out), "--format", "json")
    assert result.code == 1 and result.json["state"] is None
    assert result.json["error"] == {
        "kind": "MutationError",
        "message": "operation failed (Permission denied)",
        "paths": {"lexical": str(out)},
    }


FIXED = "20260102T030405.000006Z"


def fixed_clock(ws) -> None:  # type: ignore[no-untyped-def]
    import datetime as dt

    ws.clock = lambda: dt.datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=dt.UTC)
    ids = iter(f"{n:032x}" for n in range(1, 100))
    ws.operation_id = lambda: next(ids)


def test_deterministic_names_with_injected_clock_and_ids(ws) -> None:  # type: ignore[no-untyped-def]
    fixed_clock(ws)
    ws.locked()
    ws.target.write_bytes(RENDERED + b"old\n")
    doc = ws.run(*ws.m("install", "--apply"), "--format", "json").json
    prior = sha256_hex(RENDERED + b"old\n")
    assert Path(doc["backup_path"]).name == f"{FIXED}.{prior}.bak"
    assert Path(doc["receipt_path"]).name == f"{FIXED}-install-{1:032x}.json"
    body = json.loads(Path(doc["receipt_path"]).read_bytes())
    assert body["completed_at"] == "2026-01-02T03:04:05Z" and body["operation_id"] == f"{1:032x}"
    rolled = ws.run(
        *ws.m("rollback", "--receipt", doc["receipt_path"], "--apply"), "--format", "json"
    )
    assert Path(rolled.json["receipt_written"]).name == f"{FIXED}-rollback-{2:032x}.json"
    ws.target.write_bytes(RENDERED + b"old\n")
    again = ws.run(*ws.m("install", "--apply"), "--format", "json").json
    assert again["backup_path"] == doc["backup_path"]  # same name, same bytes: reused


def test_backup_name_collision_with_other_bytes_is_concurrent_change(ws) -> None:  # type: ignore[no-untyped-def]
    fixed_clock(ws)
    ws.locked()
    ws.target.write_bytes(RENDERED + b"old\n")
    prior = sha256_hex(RENDERED + b"old\n")
    deployment = ws.state / "agents-md-compiler" / "_v2" / "deployments" / "fixture-bundle"
    backups = deployment / sha256_hex(str(ws.target).encode()) / "backups"
    backups.mkdir(parents=True)
    (backups / f"{FIXED}.{prior}.bak").write_bytes(b"not the same\n")
    result = ws.run(*ws.m("install", "--apply"), "--format", "json")
    assert (result.code, result.json["state"]) == (3, "CONCURRENT_CHANGE")
    assert ws.target.read_bytes() == RENDERED + b"old\n"


def test_interrupted_install_leaves_a_journal_that_is_reported(ws) -> None:  # type: ignore[no-untyped-def]
    import pytest

    ws.locked()

    def killed(path: str) -> None:
        raise KeyboardInterrupt

    ws.hooks = MutationHooks(after_replace=killed)
    with pytest.raises(KeyboardInterrupt):
        ws.run(*ws.m("install", "--apply"))
    journals = list(ws.state.rglob("journal.json"))
    assert len(journals) == 1
    intent = json.loads(journals[0].read_bytes())
    assert intent["installed_sha256"] == RENDERED_SHA and intent["previous_sha256"] is None
    assert b"Prefer the smallest" not in journals[0].read_bytes()
    assert not list(ws.state.rglob("locks/*.lock"))
    status = ws.run(*ws.m("status"), "--format", "json").json
    assert status["interrupted_journal"] == str(journals[0])
    ws.hooks = MutationHooks()
    result = ws.run(*ws.m("install", "--apply"), "--format", "json")
    assert result.code == 0
    kept = Path(result.json["interrupted_journal"])
    assert kept.parent.name == "preserved" and kept.name.endswith("-interrupted.journal.json")
    assert result.stderr == ""  # JSON mode: the envelope says it
    ws.target.write_bytes(RENDERED + b"x\n")
    journals[0].write_bytes(kept.read_bytes())
    text = ws.run(*ws.m("install", "--apply"))
    assert "an earlier install was interrupted" in text.stderr
    assert not journals[0].exists()
    assert ws.run(*ws.m("status"), "--format", "json").json["interrupted_journal"] is None
