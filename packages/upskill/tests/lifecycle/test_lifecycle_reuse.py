"""Unchanged items are not re-rendered on update; anything doubtful is."""

from __future__ import annotations

import json

import pytest

import upskill.render
from upskill.cli import main


@pytest.fixture
def counted(monkeypatch, tmp_path, project):
    """Run the CLI in-process and count render_item calls per item name."""
    home = tmp_path / "home-inproc"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.chdir(project)
    calls: list[str] = []
    original = upskill.render.render_item

    def spy(item, client, **kw):
        calls.append(item.name)
        return original(item, client, **kw)

    monkeypatch.setattr(upskill.render, "render_item", spy)

    def run(*args: str) -> list[str]:
        calls.clear()
        assert main(list(args)) == 0
        return sorted(calls)

    return run


def test_only_the_changed_item_is_rendered(counted, h, project, registry):
    assert counted("add", str(registry), "--claude", "-q") == [
        "commits",
        "review",
        "reviewer",
        "style",
    ]
    h.write_item(registry, "rule", "style", "Changed.\n")
    assert counted("update", "-q") == ["style"]
    assert "Changed." in (project / ".claude/rules/style.md").read_text()
    assert counted("update", "--force", "-q") == ["commits", "review", "reviewer", "style"]


def test_doubtful_items_are_rendered_again(counted, h, project, registry):
    counted("add", str(registry), "--claude", "-q")
    (project / ".claude/rules/commits.md").unlink()  # missing output
    (project / ".claude/rules/style.md").write_text("mine\n")  # local edit
    assert counted("update", "-q") == ["commits", "style"]
    lock_path = project / ".upskill-lock.json"
    lock = json.loads(lock_path.read_text())
    lock["generator"] = "upskill 0.0.1"  # another version rendered these outputs
    lock_path.write_text(json.dumps(lock, indent=2) + "\n")
    assert counted("update", "-q") == ["commits", "review", "reviewer", "style"]
    assert counted("update", "--copilot", "-q") == ["commits", "review", "reviewer", "style"]


def test_foreign_file_keeps_being_reported(cli, project, registry):
    target = project / ".claude/rules/style.md"
    target.parent.mkdir(parents=True)
    target.write_text("hand written\n")
    cli.ok("add", str(registry), "--claude", cwd=project)
    for _ in range(2):
        out = cli.ok("update", cwd=project)
        assert "kept existing file not written by upskill: .claude/rules/style.md" in out.stderr
    target.unlink()
    cli.ok("update", cwd=project)
    assert "Use four spaces." in target.read_text()
