"""verify-codex against a fake `codex` on PATH (a real subprocess, configured by env vars)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

PROMPT = "agents-md-compiler runtime visibility probe"


def ready(ws, mode: str = "ok") -> Path:  # type: ignore[no-untyped-def]
    ws.installed()
    ws.env["FAKE_CODEX_MODE"] = mode
    ws.env["FAKE_CODEX_LOG"] = str(ws.root / "codex.log")
    return ws.fake_codex()


def verify(ws, *extra: str):  # type: ignore[no-untyped-def]
    return ws.run(*ws.m("verify-codex"), "--format", "json", *extra)


def probe_log(ws) -> list[dict]:  # type: ignore[type-arg, no-untyped-def]
    path = ws.root / "codex.log"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_project_context_success(ws) -> None:  # type: ignore[no-untyped-def]
    codex = ready(ws)
    result = verify(ws)
    assert result.code == 0, result.stderr
    doc = result.json
    assert doc["state"] == "CURRENT" and doc["ok"] is True and doc["failure"] is None
    assert doc["codex_path"] == str(codex) and doc["codex_version"] == "codex-cli 9.9.9"
    assert doc["capability_present"] is True
    assert (doc["markers_found"], doc["markers_expected"]) == (5, 5)  # header + 2 per module
    assert (doc["sentinels_found"], doc["sentinels_expected"]) == (2, 2)
    assert doc["probe_command"] == [str(codex), "debug", "prompt-input", PROMPT]
    assert doc["probe_cwd"] == str(ws.target.parent)
    assert doc["verification_context"] == "project"
    assert probe_log(ws) == [
        {"argv": ["debug", "prompt-input", PROMPT], "cwd": str(ws.target.parent)}
    ]
    text = ws.run(*ws.m("verify-codex"))
    assert (text.code, text.stdout) == (0, b"CURRENT\n")
    assert text.stderr == (
        "agents-md-compiler: codex-cli 9.9.9 exposed all 5 markers and 2 content sentinels\n"
    )


def test_project_cwd_option(ws) -> None:  # type: ignore[no-untyped-def]
    ready(ws)
    nested = ws.target.parent / "pkg" / "src"
    nested.mkdir(parents=True)
    result = verify(ws, "--cwd", str(nested))
    assert result.code == 0 and result.json["probe_cwd"] == str(nested)
    outside = verify(ws, "--cwd", str(ws.root))
    assert outside.code == 1 and outside.json["error"]["kind"] == "UsageError"
    assert "or one of its descendants" in outside.json["error"]["message"]
    absent = verify(ws, "--cwd", str(ws.target.parent / "absent"))
    assert (absent.code, absent.json["state"]) == (1, "RUNTIME_UNVERIFIED")
    assert absent.json["failure"].startswith("PROBE_DIRECTORY_MISSING")


def test_global_context_uses_disposable_directory(ws) -> None:  # type: ignore[no-untyped-def]
    codex_home = ws.root / "codex-home"
    codex_home.mkdir()
    ws.env["CODEX_HOME"] = str(codex_home)
    target = codex_home / "AGENTS.md"
    ws.locked()
    assert ws.run(*ws.m("install", "--apply"), "--target", str(target)).code == 0
    ws.env["FAKE_CODEX_LOG"] = str(ws.root / "codex.log")
    ws.fake_codex()
    result = verify(ws, "--target", str(target))
    assert result.code == 0, result.stderr
    doc = result.json
    assert doc["verification_context"] == "global"
    assert Path(doc["probe_cwd"]).name.startswith("amc-probe-")
    assert not Path(doc["probe_cwd"]).exists()
    assert probe_log(ws)[0]["cwd"] == doc["probe_cwd"]
    refused = verify(ws, "--target", str(target), "--cwd", str(codex_home))
    assert refused.code == 1 and "--cwd cannot be used" in refused.json["error"]["message"]


def test_global_context_defaults_to_home_codex(ws) -> None:  # type: ignore[no-untyped-def]
    target = ws.home / ".codex" / "AGENTS.md"
    target.parent.mkdir()
    ws.locked()
    assert ws.run(*ws.m("install", "--apply"), "--target", "~/.codex/AGENTS.md").code == 0
    ws.fake_codex()
    result = verify(ws, "--target", "~/.codex/AGENTS.md")
    assert result.code == 0 and result.json["verification_context"] == "global"
    assert result.json["target_path"] == str(target)


def test_project_target_with_codex_home_elsewhere_is_project(ws) -> None:  # type: ignore[no-untyped-def]
    ready(ws)
    ws.env["CODEX_HOME"] = str(ws.root / "codex-home")
    assert verify(ws).json["verification_context"] == "project"


@pytest.mark.parametrize(
    ("mode", "failure"),
    [
        ("version-fail", "VERSION_FAILED"),
        ("no-capability", "CAPABILITY_MISSING"),
        ("probe-fail", "PROBE_FAILED: codex debug prompt-input exited 5"),
        ("not-json", "PROBE_NOT_JSON"),
        ("drop-markers", "MARKERS_MISSING: a module marker is absent or repeated"),
        ("drop-sentinels", "SENTINELS_MISSING"),
    ],
)
def test_runtime_failures(ws, mode: str, failure: str) -> None:  # type: ignore[no-untyped-def]
    ready(ws, mode)
    result = verify(ws)
    assert result.code == 1
    doc = result.json
    assert doc["state"] == "RUNTIME_UNVERIFIED" and doc["ok"] is False
    assert doc["failure"].startswith(failure)
    # A failed run reports no partial findings (as the reference): only what was expected.
    assert doc["capability_present"] is False and doc["codex_path"] is None
    assert (doc["markers_found"], doc["markers_expected"]) == (0, 5)
    text = ws.run(*ws.m("verify-codex"))
    assert text.stdout == b"RUNTIME_UNVERIFIED\n"
    assert text.stderr == f"agents-md-compiler: verify-codex: {doc['failure']}\n"
    assert b"Prefer the smallest" not in result.stdout + text.stdout + text.stderr.encode()


def test_failed_probe_names_the_failing_argv(ws) -> None:  # type: ignore[no-untyped-def]
    codex = ready(ws, "drop-markers")
    doc = verify(ws).json
    assert doc["probe_command"] == [str(codex), "debug", "prompt-input", PROMPT]
    ws.env["FAKE_CODEX_MODE"] = "version-fail"
    assert verify(ws).json["probe_command"] == [str(codex), "--version"]


def test_probe_timeout(ws) -> None:  # type: ignore[no-untyped-def]
    ready(ws, "timeout")
    result = verify(ws, "--timeout", "0.3")
    assert result.code == 1 and result.json["failure"].startswith("PROBE_TIMEOUT")


def test_missing_executable(ws) -> None:  # type: ignore[no-untyped-def]
    ws.installed()
    ws.env["PATH"] = str(ws.bin)
    result = verify(ws)
    assert result.code == 1
    assert result.json["failure"] == "EXECUTABLE_MISSING: codex was not found on PATH"
    assert result.json["codex_path"] is None and result.json["probe_command"] == ["codex"]


def test_contaminated_probe_directory(ws) -> None:  # type: ignore[no-untyped-def]
    ready(ws)
    contaminated = ws.target.parent / "Apply the core rules to every task."
    contaminated.mkdir()
    result = verify(ws, "--cwd", str(contaminated))
    assert result.code == 1
    assert result.json["failure"].startswith("PROBE_CONTAMINATED")
    assert probe_log(ws) == []


def test_static_state_must_be_current(ws) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    ws.fake_codex()
    result = verify(ws)
    assert (result.code, result.json["state"]) == (2, "MISSING")
    assert result.json["failure"] == "static state is not CURRENT"
    ws.target.write_text("# Mine\n")
    result = verify(ws)
    assert (result.code, result.json["state"]) == (3, "UNMANAGED_TARGET")
    assert probe_log(ws) == []


def test_probe_output_limit_and_unrunnable_codex(ws) -> None:  # type: ignore[no-untyped-def]
    from agents_md_compiler.codex import CodexReport, Expectations, _inspect
    from agents_md_compiler.models import BundleLimits

    report = CodexReport("project", "/p")
    expected = Expectations("h", ("m",), ())
    small = BundleLimits(max_probe_output_bytes=4)
    assert _inspect(report, expected, (0, b'"hhhhh"'), small).failure == (
        "PROBE_OUTPUT_TOO_LARGE: prompt input exceeds the size limit"
    )
    found = _inspect(report, expected, (0, b'{"h": ["m", {"x": 1}]}'), BundleLimits())
    assert found.failure is None and found.markers_found == 2  # the header and the marker
    ws.installed()
    codex = ws.bin / "codex"
    codex.write_text("not an executable format")
    codex.chmod(0o755)
    result = verify(ws)
    assert result.code == 1 and result.json["failure"].startswith("VERSION_FAILED")
