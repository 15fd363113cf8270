"""The shipped example bundle (examples/agents-md) is valid, locked and renders."""

from __future__ import annotations

import shutil
from pathlib import Path

EXAMPLE = Path(__file__).parents[3] / "examples" / "agents-md"


def test_example_is_locked_and_renders(ws) -> None:  # type: ignore[no-untyped-def]
    copy = ws.root / "example"
    shutil.copytree(EXAMPLE, copy)
    manifest = copy / "agents-md.toml"
    validate = ws.run("validate", "--manifest", str(manifest), "--format", "json")
    assert validate.code == 0, validate.stderr
    doc = validate.json
    assert doc["bundle_id"] == "ctxkit-team"
    assert [m["id"] for m in doc["modules"]] == ["code-review", "testing", "security"]
    assert doc["target_path"] == str(ws.home / ".codex" / "AGENTS.md")
    assert ws.run("lock", "--check", "--manifest", str(manifest)).code == 0
    rendered = ws.run("render", "--locked", "--manifest", str(manifest))
    assert rendered.code == 0
    text = rendered.stdout.decode("utf-8")
    assert text.startswith(
        "# Agent Instructions\n\n<!-- agents-md-compiler:generated format=2 -->\n"
    )
    for heading in ("# Code Review", "# Testing", "# Security Practices"):
        assert heading in text
    assert text.index("id=code-review") < text.index("id=testing") < text.index("id=security")
    assert len(rendered.stdout) == doc["output_bytes"]
    target = ws.root / "AGENTS.md"
    assert (
        ws.run("install", "--apply", "--manifest", str(manifest), "--target", str(target)).code == 0
    )
    assert target.read_bytes() == rendered.stdout
    check = ws.run("check", "--manifest", str(manifest), "--target", str(target))
    assert check.stdout == b"CURRENT\n"


def test_example_modules_are_substantial() -> None:
    for module in sorted((EXAMPLE / "modules").glob("*.md")):
        text = module.read_text(encoding="utf-8")
        assert text.count("\n- ") + text.count("\n1. ") >= 5, module.name
        assert len(text) > 800, module.name
