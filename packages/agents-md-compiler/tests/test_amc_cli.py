"""In-process black-box tests of cli.main: every read-only state, exit code and stream rule."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from agents_md_compiler import cli
from agents_md_compiler.locking import LockTiming
from agents_md_compiler.models import sha256_hex
from agents_md_compiler.seams import MutationHooks

FIXTURES = Path(__file__).parent / "fixtures"
GOLDEN = Path(__file__).parent / "golden"
POLICY_LINE = b"Prefer the smallest correct change."

INVALID_MANIFESTS = {
    "bundle-id-empty": "bundle_id must not be empty",
    "bundle-id-missing": "bundle_id is missing",
    "bundle-id-pattern": "bundle_id 'Fixture_Bundle' does not match",
    "bundle-id-type": "bundle_id must be a string, not integer",
    "default-target-blank": "default_target must not be blank",
    "default-target-missing": "default_target is missing",
    "default-target-type": "default_target must be a string, not integer",
    "duplicate-module-id": "modules[1]: duplicate module id 'core'",
    "duplicate-source-path": "modules[1]: duplicate source path",
    "module-id-missing": "modules[0].id is missing",
    "module-id-pattern": "modules[0].id '1core' does not match",
    "module-id-too-long": "modules[0].id 'aaaaaaaaaabbbbbbbbbb",
    "module-id-type": "modules[0].id must be a string, not integer",
    "module-source-blank": "modules[0].source must not be blank",
    "module-source-missing": "modules[0].source is missing",
    "module-source-type": "modules[0].source must be a string, not array",
    "modules-empty": "modules must not be empty",
    "modules-missing": "modules is missing",
    "modules-not-array": "modules must be an array of tables, not string",
    "modules-not-tables": "modules[0] must be a table, not string",
    "schema-version-bool": "schema_version must be an integer, not boolean",
    "schema-version-float": "schema_version must be an integer, not float",
    "schema-version-missing": "schema_version is missing",
    "schema-version-string": "schema_version must be an integer, not string",
    "schema-version-unsupported": "unsupported schema_version 2 (expected 1)",
    "unknown-module-key": "modules[0]: unknown key(s): optional",
    "unknown-top-key": "unknown top-level key(s): strict",
}


def test_invalid_fixture_set_is_complete() -> None:
    names = {p.stem for p in (FIXTURES / "manifests" / "invalid").glob("*.toml")}
    assert names == set(INVALID_MANIFESTS)
    assert len(names) == 27


@pytest.mark.parametrize("name", sorted(INVALID_MANIFESTS))
def test_invalid_manifest(ws, name: str) -> None:  # type: ignore[no-untyped-def]
    path = ws.root / "manifests" / "invalid" / f"{name}.toml"
    result = ws.run("validate", "--manifest", str(path), "--format", "json")
    assert result.code == 1
    doc = result.json
    assert doc["state"] == "INVALID_MANIFEST" and doc["ok"] is False
    assert doc["error"]["kind"] == "ManifestError"
    assert INVALID_MANIFESTS[name] in doc["error"]["message"]
    assert doc["error"]["paths"] == {"lexical": str(path)}
    text = ws.run("check", "--manifest", str(path))
    assert (text.code, text.stdout) == (1, b"")
    assert text.stderr.count("\n") == 1
    assert text.stderr.startswith(f"agents-md-compiler: check: INVALID_MANIFEST: {path}: ")
    assert INVALID_MANIFESTS[name] in text.stderr
    assert not ws.lock.exists()


def check(ws, *extra: str):  # type: ignore[no-untyped-def]
    return ws.run(*ws.m("check"), *extra)


def test_lock_missing_then_current_lifecycle(ws) -> None:  # type: ignore[no-untyped-def]
    missing = check(ws)
    assert (missing.code, missing.stdout) == (2, b"LOCK_MISSING\n")
    assert missing.stderr == "agents-md-compiler: check: LOCK_MISSING\n"
    ws.locked()
    assert ws.lock.read_bytes() == (GOLDEN / "minimal.lock.json").read_bytes()
    assert stat.S_IMODE(ws.lock.stat().st_mode) == 0o600
    result = check(ws)
    assert (result.code, result.stdout) == (2, b"MISSING\n")
    ws.target.write_bytes((GOLDEN / "minimal.AGENTS.md").read_bytes())
    result = check(ws, "--format", "json")
    assert result.code == 0
    assert result.json == {
        "bundle_id": "fixture-bundle",
        "command": "check",
        "lock_path": str(ws.lock),
        "lock_sha256": "9a12daad4c2c91c632ef11d550fbb22c0ae1d8aee4f0627feb387e8630bb1dfc",
        "manifest_path": str(ws.manifest),
        "manifest_sha256": "4e089bbdf4df3d14082ef2000409de0248ea802acfb9c8da7f35529bb576ede2",
        "modules": [
            {
                "id": "core",
                "sha256": "8c192586346d7897630b628b5ba7d9979a403b34f3019288aa9f86587550fadf",
                "size_bytes": 122,
            },
            {
                "id": "python",
                "sha256": "b805bf119361750da820d713809743a20ec70ecfe155470ef9c5d7637623438d",
                "size_bytes": 142,
            },
        ],
        "ok": True,
        "output_bytes": 982,
        "output_sha256": "a381b51ddffdd62777b0fc4b33d5bc2e9c9590a19f217926d5e22f89db9f991f",
        "schema_version": 1,
        "state": "CURRENT",
        "target_path": str(ws.target),
        "target_sha256": "a381b51ddffdd62777b0fc4b33d5bc2e9c9590a19f217926d5e22f89db9f991f",
    }
    assert result.stderr == ""


def test_drifted_when_managed_target_edited(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    ws.target.write_bytes((GOLDEN / "minimal.AGENTS.md").read_bytes() + b"local edit\n")
    result = check(ws)
    assert (result.code, result.stdout) == (2, b"DRIFTED\n")
    assert result.stderr == "agents-md-compiler: check: DRIFTED\n"


def test_lock_stale_on_manifest_comment_and_source_edit(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    original = ws.manifest.read_bytes()
    ws.manifest.write_bytes(original + b"# a comment\n")
    result = check(ws, "--format", "json")
    assert (result.code, result.json["state"]) == (2, "LOCK_STALE")
    assert result.json["target_sha256"] is None  # the target is not inspected under a stale lock
    assert result.stderr == ""  # JSON mode: the state is in the envelope only
    ws.manifest.write_bytes(original)
    core = ws.root / "modules" / "core.md"
    core.write_bytes(core.read_bytes() + b"- One more rule.\n")
    result = check(ws)
    assert (result.code, result.stdout) == (2, b"LOCK_STALE\n")
    assert result.stderr == "agents-md-compiler: check: LOCK_STALE\n"


def test_noncanonical_lock_bytes_are_stale(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    doc = json.loads(ws.lock.read_bytes())
    ws.lock.write_text(json.dumps(doc, sort_keys=True) + "\n")
    result = check(ws)
    assert (result.code, result.stdout) == (2, b"LOCK_STALE\n")
    assert result.stderr == "agents-md-compiler: check: LOCK_STALE\n"


def test_format1_lock_is_always_stale_and_lock_rewrites_it(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    doc = json.loads(ws.lock.read_bytes())
    doc["format_version"] = 1
    for module in doc["modules"]:
        module["resolved_source"] = str((ws.manifest.parent / module.pop("source")).resolve())
    ws.lock.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")
    result = check(ws, "--format", "json")
    assert (result.code, result.json["state"]) == (2, "LOCK_STALE")
    assert ws.run(*ws.m("lock", "--check")).code == 2
    written = ws.run(*ws.m("lock"), "--format", "json")
    assert (written.code, written.json["written"]) == (0, True)
    assert ws.lock.read_bytes() == (GOLDEN / "minimal.lock.json").read_bytes()


def test_invalid_lock(ws) -> None:  # type: ignore[no-untyped-def]
    ws.lock.write_text('{"format_version": 9}\n')
    result = check(ws, "--format", "json")
    assert result.code == 1
    doc = result.json
    assert doc["state"] == "INVALID_LOCK" and doc["error"]["kind"] == "LockError"
    assert doc["error"]["paths"] == {"lexical": str(ws.lock)}
    ws.lock.unlink()
    ws.lock.symlink_to(GOLDEN / "minimal.lock.json")
    result = check(ws)
    assert result.code == 1 and "INVALID_LOCK" in result.stderr and "symbolic link" in result.stderr


def test_invalid_source_reports_lexical_and_resolved(ws) -> None:  # type: ignore[no-untyped-def]
    core = ws.root / "modules" / "core.md"
    core.write_bytes(b"# Core\r\nline\n")
    result = check(ws, "--format", "json")
    assert result.code == 1
    doc = result.json
    assert doc["state"] == "INVALID_SOURCE"
    assert doc["error"] == {
        "kind": "SourceError",
        "message": "source contains a carriage return at byte offset 6",
        "paths": {"lexical": "../modules/core.md", "resolved": str(core)},
    }


def test_source_symlink_is_invalid(ws) -> None:  # type: ignore[no-untyped-def]
    core = ws.root / "modules" / "core.md"
    moved = ws.root / "elsewhere.md"
    core.rename(moved)
    core.symlink_to(moved)
    result = check(ws)
    assert result.code == 1
    assert (
        result.stderr == "agents-md-compiler: check: INVALID_SOURCE: ../modules/core.md: "
        "source is a symbolic link\n"
    )


def test_shadowed_by_nonempty_override_only(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    override = ws.target.parent / "AGENTS.override.md"
    override.write_bytes(b"")
    assert check(ws).stdout == b"MISSING\n"
    override.write_bytes(b"# Override\n")
    result = check(ws)
    assert (result.code, result.stdout) == (3, b"SHADOWED\n")
    status = ws.run(*ws.m("status"), "--format", "json").json
    assert status["override_present"] is True and status["override_path"] == str(override)
    assert status["state"] == "SHADOWED"


def test_unmanaged_and_unknown_format_targets(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    ws.target.write_bytes(b"# My notes\n\nHand written.\n")
    result = check(ws)
    assert (result.code, result.stdout) == (3, b"UNMANAGED_TARGET\n")
    future = (GOLDEN / "minimal.AGENTS.md").read_bytes().replace(b"format=2", b"format=3")
    ws.target.write_bytes(future)
    assert check(ws).stdout == b"UNMANAGED_TARGET\n"
    ws.target.write_bytes((GOLDEN / "minimal.AGENTS.md").read_bytes().replace(b"\n", b"\r\n"))
    assert check(ws).stdout == b"UNMANAGED_TARGET\n"


def test_format1_target_is_managed_and_drifted(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    v1 = (GOLDEN / "minimal.AGENTS.md").read_bytes()
    v1 = v1.replace(b"# Agent Instructions", b"# Global Agent Instructions", 1).replace(
        b"format=2", b"format=1"
    )
    ws.target.write_bytes(v1)
    result = check(ws)
    assert (result.code, result.stdout) == (2, b"DRIFTED\n")
    wrong_title = v1.replace(b"# Global Agent", b"# Agent", 1)
    ws.target.write_bytes(wrong_title)
    assert check(ws).stdout == b"UNMANAGED_TARGET\n"


def test_precedence_order(ws) -> None:  # type: ignore[no-untyped-def]
    override = ws.target.parent / "AGENTS.override.md"
    override.write_bytes(b"# Override\n")
    ws.target.write_bytes(b"unmanaged\n")
    assert check(ws).stdout == b"LOCK_MISSING\n"
    ws.lock.write_text("not json")
    assert "INVALID_LOCK" in check(ws).stderr
    (ws.root / "modules" / "python.md").write_bytes(b"no newline")
    assert "INVALID_SOURCE" in check(ws).stderr
    (ws.root / "modules" / "python.md").write_bytes(b"# Python\n")
    ws.lock.unlink()
    ws.locked()
    assert check(ws).stdout == b"SHADOWED\n"
    override.unlink()
    assert check(ws).stdout == b"UNMANAGED_TARGET\n"


def test_target_option_and_directory_target(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    other = ws.root / "other.md"
    other.write_bytes((GOLDEN / "minimal.AGENTS.md").read_bytes())
    result = ws.run(*ws.m("check"), "--target", "other.md", "--format", "json")
    assert result.code == 0 and result.json["target_path"] == str(other)
    result = ws.run(*ws.m("check"), "--target", str(ws.root), "--format", "json")
    assert result.code == 1 and result.json["state"] is None
    assert result.json["error"]["kind"] == "TargetError"


def test_validate_reports_only_lock_states(ws) -> None:  # type: ignore[no-untyped-def]
    result = ws.run(*ws.m("validate"), "--format", "json")
    assert (result.code, result.json["state"]) == (2, "LOCK_MISSING")
    ws.locked()
    ws.target.write_bytes(b"unmanaged\n")
    result = ws.run(*ws.m("validate"), "--format", "json")
    assert result.code == 0
    doc = result.json
    assert doc["state"] == "CURRENT" and doc["target_sha256"] is None
    assert doc["target_path"] == str(ws.target)
    assert ws.run(*ws.m("validate")).stdout == b"CURRENT\n"


def test_target_aliasing_a_source_is_invalid_manifest(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    core = ws.root / "modules" / "core.md"
    for command in ("validate", "check", "status", "install"):
        result = ws.run(*ws.m(command), "--target", str(core), "--format", "json")
        assert result.code == 1, command
        assert result.json["state"] == "INVALID_MANIFEST"
        assert "TARGET_ALIASES_SOURCE" in result.json["error"]["message"]


def test_render_stdout_is_exact_bytes(ws) -> None:  # type: ignore[no-untyped-def]
    result = ws.run(*ws.m("render"))
    assert result.code == 0 and result.stderr == ""
    assert result.stdout == (GOLDEN / "minimal.AGENTS.md").read_bytes()
    quiet = ws.run("--quiet", *ws.m("render"))
    assert quiet.stdout == result.stdout


def test_render_locked(ws) -> None:  # type: ignore[no-untyped-def]
    result = ws.run(*ws.m("render", "--locked"))
    assert (result.code, result.stdout) == (2, b"LOCK_MISSING\n")  # the token, never bytes
    assert result.stderr == f"agents-md-compiler: render: LOCK_MISSING at {ws.lock}\n"
    ws.locked()
    locked = ws.run(*ws.m("render", "--locked"))
    assert locked.code == 0 and locked.stdout == (GOLDEN / "minimal.AGENTS.md").read_bytes()
    ws.manifest.write_bytes(ws.manifest.read_bytes() + b"\n")
    stale = ws.run(*ws.m("render", "--locked"), "--format", "json")
    assert (stale.code, stale.json["state"]) == (2, "LOCK_STALE")
    assert set(stale.json) == {"command", "ok", "schema_version", "state", "lock_path"}
    assert stale.stderr == f"agents-md-compiler: render: LOCK_STALE at {ws.lock}\n"


def test_render_json_and_output(ws) -> None:  # type: ignore[no-untyped-def]
    result = ws.run(*ws.m("render"), "--format", "json")
    doc = result.json
    assert doc["output_sha256"] == sha256_hex((GOLDEN / "minimal.AGENTS.md").read_bytes())
    assert doc["target_path"] is None and doc["output_path"] is None
    assert "target_sha256" not in doc
    assert POLICY_LINE not in result.stdout
    out = ws.root / "rendered.md"
    written = ws.run(*ws.m("render"), "--output", str(out))
    assert (written.code, written.stdout) == (0, f"{out}\n".encode())
    assert written.stderr == f"agents-md-compiler: wrote {out}\n"
    assert out.read_bytes() == (GOLDEN / "minimal.AGENTS.md").read_bytes()
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    again = ws.run(*ws.m("render"), "--output", str(out), "--format", "json")
    assert again.code == 1 and again.json["error"]["kind"] == "OutputExistsError"
    assert again.json["state"] is None
    missing_parent = ws.run(*ws.m("render"), "--output", str(ws.root / "nope" / "x.md"))
    assert missing_parent.code == 1 and "parent directory does not exist" in missing_parent.stderr


def test_lock_command_fields_check_and_idempotence(ws) -> None:  # type: ignore[no-untyped-def]
    check_only = ws.run(*ws.m("lock", "--check"), "--format", "json")
    assert (check_only.code, check_only.json["state"], check_only.json["written"]) == (
        2,
        "LOCK_MISSING",
        False,
    )
    assert not ws.lock.exists()
    first = ws.run(*ws.m("lock"), "--format", "json")
    assert first.code == 0
    assert first.json["written"] is True and first.json["lock_path"] == str(ws.lock)
    assert set(first.json) == {
        "command",
        "ok",
        "schema_version",
        "state",
        "lock_path",
        "lock_sha256",
        "manifest_sha256",
        "modules",
        "written",
    }
    second = ws.run(*ws.m("lock"), "--format", "json")
    assert second.json["written"] is False and second.json["state"] == "CURRENT"
    assert ws.run(*ws.m("lock", "--check")).code == 0
    ws.lock.write_text("garbage")
    assert ws.run(*ws.m("lock", "--check")).code == 2  # unparseable bytes are simply stale
    assert ws.run(*ws.m("lock")).code == 0
    assert ws.lock.read_bytes() == (GOLDEN / "minimal.lock.json").read_bytes()


def test_lock_explicit_path_and_symlink_refusal(ws) -> None:  # type: ignore[no-untyped-def]
    custom = ws.root / "custom.lock.json"
    assert ws.run(*ws.m("lock"), "--lock", str(custom)).code == 0
    assert custom.read_bytes() == (GOLDEN / "minimal.lock.json").read_bytes()
    assert ws.run(*ws.m("check"), "--lock", str(custom)).stdout == b"MISSING\n"
    ws.lock.symlink_to(custom)
    result = ws.run(*ws.m("lock"))
    assert result.code == 1 and "INVALID_LOCK" in result.stderr
    assert ws.lock.is_symlink()


def test_lock_concurrent_change(ws) -> None:  # type: ignore[no-untyped-def]
    def meddle(path: str) -> None:
        Path(path).write_text("someone else\n")

    ws.hooks = MutationHooks(before_recheck=meddle)
    result = ws.run(*ws.m("lock"), "--format", "json")
    assert (result.code, result.json["state"]) == (3, "CONCURRENT_CHANGE")
    assert ws.lock.read_text() == "someone else\n"


def test_held_advisory_lock_times_out(ws) -> None:  # type: ignore[no-untyped-def]
    from agents_md_compiler.paths import advisory_lock_path, state_root

    holder = Path(advisory_lock_path(state_root(ws.env), str(ws.lock)))
    holder.parent.mkdir(parents=True)
    holder.write_text(json.dumps({"acquired_at": "held", "pid": os.getpid()}))  # a live holder
    ws.timing = LockTiming(poll_seconds=0.01, timeout_seconds=0.05)
    result = ws.run(*ws.m("lock"), "--format", "json")
    assert result.code == 1 and result.json["error"]["kind"] == "MutationError"
    assert "advisory lock" in result.stderr and f"pid {os.getpid()}" in result.stderr
    assert not ws.lock.exists()


def test_status_fields(ws) -> None:  # type: ignore[no-untyped-def]
    result = ws.run(*ws.m("status"), "--format", "json")
    doc = result.json
    assert (result.code, doc["state"]) == (2, "LOCK_MISSING")
    assert doc["lock_present"] is False and doc["lock_matches"] is False
    assert doc["receipt_count"] == 0 and doc["latest_receipt"] is None and doc["backup_count"] == 0
    assert doc["target_kind"] is None  # the target is not inspected while the lock is missing
    assert doc["state_root"].startswith(
        str(ws.state / "agents-md-compiler" / "_v2" / "deployments" / "fixture-bundle")
    )
    text = ws.run(*ws.m("status"))
    assert text.stdout == b"LOCK_MISSING\n"
    assert text.stderr == "agents-md-compiler: status: LOCK_MISSING\n"
    quiet = ws.run(*ws.m("status"), "--quiet")
    assert quiet.stderr == "agents-md-compiler: status: LOCK_MISSING\n"  # not progress
    ws.locked()
    ws.target.write_bytes(b"mine\n")
    assert ws.run(*ws.m("status"), "--format", "json").json["target_kind"] == "UNMANAGED"


def test_format_and_quiet_positions(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    assert ws.run("--format", "json", *ws.m("check")).json["state"] == "MISSING"
    assert ws.run("--format", "json", *ws.m("check"), "--format", "text").stdout == b"MISSING\n"
    assert ws.run("--format", "text", *ws.m("check"), "--format", "json").json["command"] == "check"
    assert ws.run("--format=json", *ws.m("check")).json["ok"] is False
    loud = ws.run(*ws.m("lock"), "--lock", str(ws.root / "l2.json"))
    assert loud.stderr == f"agents-md-compiler: wrote {ws.root / 'l2.json'}\n"
    for argv in (["--quiet", *ws.m("lock")], [*ws.m("lock"), "--quiet"]):
        (ws.root / "l3.json").unlink(missing_ok=True)
        quiet = ws.run(*argv, "--lock", str(ws.root / "l3.json"))
        assert (quiet.code, quiet.stderr) == (0, "")


def test_manifest_discovery(ws) -> None:  # type: ignore[no-untyped-def]
    project = ws.root / "project"
    project.mkdir()
    none = ws.run("validate", "--format", "json", cwd=project)
    assert none.code == 1 and none.json["error"]["paths"] == {  # discovered: lexical is the path
        "lexical": str(project / "agents-md.toml"),
    }
    text = (FIXTURES / "manifests" / "minimal.toml").read_text().replace("../modules", "../modules")
    (project / "global-agents.toml").write_text(text)
    legacy = ws.run("lock", "--format", "json", cwd=project)
    assert legacy.code == 0 and legacy.json["lock_path"] == str(
        project / "global-agents.toml.lock.json"
    )
    (project / "agents-md.toml").write_text(text)
    both = ws.run("check", "--format", "json", cwd=project)
    assert both.code == 1 and both.json["state"] is None
    assert both.json["error"]["kind"] == "UsageError"
    assert "pass --manifest explicitly" in both.json["error"]["message"]
    (project / "global-agents.toml").unlink()
    current = ws.run("lock", "--format", "json", cwd=project)
    assert current.json["lock_path"] == str(project / "agents-md.toml.lock.json")


def test_version_and_help(ws, capsys) -> None:  # type: ignore[no-untyped-def]
    from importlib.metadata import version

    expected = version("agents-md-compiler")
    assert ws.run("version").stdout == f"{expected}\n".encode()
    assert ws.run("--version").stdout == f"{expected}\n".encode()
    doc = ws.run("version", "--format", "json").json
    assert doc == {
        "command": "version",
        "ok": True,
        "schema_version": 1,
        "state": None,
        "version": expected,
    }
    for argv in (["--help"], ["check", "--help"], ["install", "--help"]):
        with pytest.raises(SystemExit) as info:
            cli.main(argv)
        assert info.value.code == 0
    assert "verify-codex" in capsys.readouterr().out


def test_version_reports_unknown_without_distribution(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from importlib import metadata

    from agents_md_compiler import version as version_module

    def missing(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    assert version_module.installed_version([]) == "0.0.0+unknown"


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["check", "--bogus"], "unrecognized arguments: --bogus"),
        ([], "no command given"),
        (["frobnicate"], "invalid choice"),
        (["check", "--format", "yaml"], "invalid choice"),
        (["rollback"], "--receipt"),
        (["verify-codex", "--timeout", "soon"], "invalid float value: 'soon'"),
        (["verify-codex", "--timeout", "-1"], "--timeout must be a positive"),
        (
            ["install", "--expect-target-sha256", "0" * 64],
            "only meaningful with --replace-unmanaged",
        ),
        (["install", "--replace-unmanaged", "--expect-target-sha256", "ABC"], "64-character hex"),
    ],
)
def test_usage_errors_exit_1(ws, argv: list[str], fragment: str) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    result = (
        ws.run(*argv, "--manifest", str(ws.manifest))
        if argv[:1] in (["verify-codex"], ["install"])
        else ws.run(*argv)
    )
    assert result.code == 1 and result.stdout == b""
    assert fragment in result.stderr.splitlines()[-1]
    # argparse's own refusals print its usage first (as the reference); others are one line
    if not result.stderr.startswith("usage: "):
        assert result.stderr.count("\n") == 1
    json_result = ws.run("--format", "json", *argv)
    assert json_result.code == 1
    assert json_result.json["ok"] is False and json_result.json["state"] is None
    assert json_result.json["error"]["kind"] == "UsageError"


def test_policy_content_never_leaves_render(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    outputs = []
    for argv in (
        ["check"],
        ["status"],
        ["validate"],
        ["install"],
        ["install", "--apply"],
        ["lock"],
    ):
        for fmt in ("text", "json"):
            result = ws.run(*ws.m(*argv), "--format", fmt)
            outputs.append(result.stdout + result.stderr.encode())
    for output in outputs:
        assert POLICY_LINE not in output and b"Python Policy" not in output
    for path in ws.state.rglob("*.json"):
        assert POLICY_LINE not in path.read_bytes()
    assert POLICY_LINE not in ws.lock.read_bytes()


def test_init_scaffold(ws) -> None:  # type: ignore[no-untyped-def]
    project = ws.root / "fresh"
    result = ws.run(
        "init",
        "--directory",
        "fresh",
        "--bundle-id",
        "team-rules",
        "--target",
        "out/AGENTS.md",
        "--format",
        "json",
    )
    assert result.code == 0
    doc = result.json
    manifest = project / "agents-md.toml"
    assert doc["state"] is None and doc["ok"] is True
    assert doc["created"] == [  # the files; directories are not listed (as the reference)
        str(manifest),
        str(project / "modules" / "core.md"),
        str(project / "modules" / "python.md"),
    ]
    assert doc["target_path"] == str(ws.root / "out" / "AGENTS.md")
    assert doc["next_command"] == ["agents-md-compiler", "lock", "--manifest", str(manifest)]
    assert 'default_target = "../out/AGENTS.md"\n' in manifest.read_text()
    assert 'bundle_id = "team-rules"\n' in manifest.read_text()
    assert stat.S_IMODE(manifest.stat().st_mode) == 0o644
    assert stat.S_IMODE((project / "modules").stat().st_mode) == 0o755
    assert ws.run(*doc["next_command"][1:]).code == 0
    assert ws.run("validate", "--manifest", str(manifest)).code == 0
    again = ws.run("init", "--directory", "fresh")
    assert again.code == 1 and "path exists" in again.stderr


def test_init_default_targets(ws) -> None:  # type: ignore[no-untyped-def]
    plain = ws.root / "plain"
    plain.mkdir()
    text = ws.run("init", cwd=plain)
    assert text.code == 0
    created = ["agents-md.toml", "modules/core.md", "modules/python.md"]
    assert text.stdout == "".join(f"{plain / name}\n" for name in created).encode()
    assert 'default_target = "~/.codex/AGENTS.md"\n' in (plain / "agents-md.toml").read_text()
    assert text.stderr == (
        "agents-md-compiler: scaffolded 3 files; run agents-md-compiler lock --manifest "
        f"{plain / 'agents-md.toml'}\n"
    )
    codex_home = ws.root / "codex-home"
    ws.env["CODEX_HOME"] = str(codex_home)
    other = ws.root / "other"
    other.mkdir()
    doc = ws.run("init", "--directory", str(other), "--format", "json").json
    assert doc["target_path"] == str(codex_home / "AGENTS.md")
    assert (
        f'default_target = "{codex_home / "AGENTS.md"}"' in (other / "agents-md.toml").read_text()
    )
    bad = ws.run("init", "--directory", str(other), "--bundle-id", "Bad_Id")
    assert bad.code == 1 and "--bundle-id 'Bad_Id'" in bad.stderr
    partial = ws.root / "partial"
    (partial / "modules").mkdir(parents=True)
    (partial / "modules" / "python.md").write_text("mine\n")
    refused = ws.run("init", "--directory", str(partial))
    assert refused.code == 1 and not (partial / "agents-md.toml").exists()
    assert (partial / "modules" / "python.md").read_text() == "mine\n"


def test_stdout_is_one_json_object(ws) -> None:  # type: ignore[no-untyped-def]
    for argv in (["check"], ["status"], ["validate"], ["lock"], ["render"], ["install"]):
        result = ws.run(*ws.m(*argv), "--format", "json")
        assert result.stdout.count(b"\n") == 1, argv
        keys = list(json.loads(result.stdout))
        assert keys == sorted(keys) and {"command", "ok", "schema_version", "state"} <= set(keys)
        assert (result.json["ok"] is True) == (result.code == 0)
    assert os.sep == "/"


def test_outputs_never_overwrite_inputs(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    manifest_bytes = ws.manifest.read_bytes()
    core = ws.root / "modules" / "core.md"
    adopt = ["--replace-unmanaged", "--expect-target-sha256"]
    for argv in (
        ["install", "--apply", "--target", str(ws.manifest), *adopt, sha256_hex(manifest_bytes)],
        ["install", "--apply", "--target", str(ws.lock), *adopt, sha256_hex(ws.lock.read_bytes())],
        ["lock", "--lock", str(ws.manifest)],
        ["lock", "--lock", str(core)],
    ):
        result = ws.run(*ws.m(*argv), "--format", "json")
        assert result.code == 1 and result.json["error"]["kind"] == "UsageError", argv
    # Without the adoption flags the manifest is simply an unmanaged target (as the reference).
    plain = ws.run(*ws.m("install", "--apply", "--target", str(ws.manifest)), "--format", "json")
    assert plain.code == 3 and plain.json["error"]["kind"] == "UnmanagedTargetError"
    assert ws.manifest.read_bytes() == manifest_bytes
    assert core.read_bytes().startswith(b"# Core Policy")


BASE = {"command", "ok", "schema_version", "state"}
BUNDLE = {
    "bundle_id", "manifest_path", "lock_path", "manifest_sha256", "lock_sha256",
    "output_sha256", "output_bytes", "modules", "target_path",
}  # fmt: skip


def test_every_command_specific_field_is_present(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    keys = {}
    for name in ("validate", "render", "check", "status", "install"):
        keys[name] = set(ws.run(*ws.m(name), "--format", "json").json)
    applied = ws.run(*ws.m("install", "--apply"), "--format", "json").json
    rollback = ws.run(*ws.m("rollback", "--receipt", applied["receipt_path"]), "--format", "json")
    ws.fake_codex()
    ws.run(*ws.m("install", "--apply"))
    codex = ws.run(*ws.m("verify-codex"), "--format", "json")
    assert codex.code == 0
    assert keys["validate"] == keys["check"] == BASE | BUNDLE | {"target_sha256"}
    assert keys["render"] == BASE | BUNDLE | {"output_path"}
    assert keys["status"] == BASE | BUNDLE | {"target_sha256"} | {
        "override_path", "override_present", "state_root", "receipt_count", "latest_receipt",
        "backup_count", "lock_present", "lock_matches", "target_kind", "interrupted_journal",
    }  # fmt: skip
    install_fields = {
        "applied", "previous_state", "previous_sha256", "backup_path", "backup_sha256",
        "receipt_path", "target_mode", "target_sha256",
    }  # fmt: skip
    assert keys["install"] == BASE | BUNDLE | install_fields | {"plan"}  # the dry run's paths
    assert set(applied) == BASE | BUNDLE | install_fields | {"interrupted_journal"}
    assert set(rollback.json) == BASE | {
        "applied", "receipt_path", "target_path", "restored_sha256", "preserved_path",
        "receipt_written", "plan",
    }  # fmt: skip
    assert set(codex.json) == BASE | BUNDLE | {"target_sha256"} | {
        "codex_path", "codex_version", "capability_present", "markers_found",
        "markers_expected", "sentinels_found", "sentinels_expected", "probe_command",
        "probe_cwd", "verification_context", "failure",
    }  # fmt: skip


def test_fast_version_agrees_with_importlib_metadata() -> None:
    from importlib import metadata

    from agents_md_compiler.version import installed_version

    assert installed_version() == metadata.version("agents-md-compiler")


def test_fast_version_reads_first_dist_info_on_the_path(tmp_path: Path) -> None:
    from agents_md_compiler.version import installed_version

    first, second = tmp_path / "a", tmp_path / "b"
    for root, version in ((first, "1.2.3"), (second, "9.9.9")):
        info = root / f"agents_md_compiler-{version}.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.4\nName: agents-md-compiler\nVersion: {version}\n\nbody\n"
        )
    assert installed_version([str(tmp_path / "missing"), str(first), str(second)]) == "1.2.3"


def test_fast_version_defers_to_importlib_for_egg_info(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from importlib import metadata

    from agents_md_compiler.version import installed_version

    (tmp_path / "agents_md_compiler-0.1.egg-info").mkdir()
    monkeypatch.setattr(metadata, "version", lambda name: "from-importlib")
    assert installed_version([str(tmp_path)]) == "from-importlib"


@pytest.mark.parametrize("argv", [["--version"], ["version"]])
def test_version_fast_path_skips_the_full_cli(argv: list[str]) -> None:
    code = (
        "import sys; from agents_md_compiler.entry import main; main(sys.argv[1:]); "
        "print('argparse' in sys.modules, 'agents_md_compiler.cli' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True
    ).stdout
    lines = out.splitlines()
    from importlib import metadata

    assert lines == [metadata.version("agents-md-compiler"), "False False"]
