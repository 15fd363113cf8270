"""`upskill import` of the plugins a team lists (Claude Code settings, VS Code
recommendations), and `add` of the import running the installs that write them back."""

from __future__ import annotations

import json

from upskill.format.yamlio import load_yaml

SETTINGS = {
    "enabledPlugins": {
        "formatter@team-tools": True,
        "linter@team-tools": False,
        "pinned@team-tools": ["1.0.0"],
        "review@local": True,
        "ghost@nowhere": True,
        "packaged@npm-market": True,
    },
    "extraKnownMarketplaces": {
        "team-tools": {"source": {"source": "github", "repo": "acme/claude-plugins"}},
        "local": {"source": {"source": "directory", "path": "./plugins"}},
        "npm-market": {"source": {"source": "npm", "package": "@acme/market"}},
    },
}


def test_listed_plugins_import_and_reinstall(project) -> None:  # type: ignore[no-untyped-def]
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").write_text(json.dumps(SETTINGS))
    (project.root / ".vscode").mkdir()
    (project.root / ".vscode" / "extensions.json").write_text(
        '{\n  // shared\n  "recommendations": ["ms-python.python"],\n'
        '  "unwantedRecommendations": ["x.y"]\n}\n'
    )
    out = project.run("import", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["plugins"] == ["formatter", "review", "ms-python-python"]
    assert [n["message"] for n in report["notes"]] == [
        ".claude/settings.json: plugin 'linter@team-tools' is not enabled with true "
        "(disabled or pinned to versions); left out",
        ".claude/settings.json: plugin 'pinned@team-tools' is not enabled with true "
        "(disabled or pinned to versions); left out",
        ".claude/settings.json: plugin 'ghost@nowhere' comes from marketplace 'nowhere', "
        "which extraKnownMarketplaces does not declare; left out",
        ".claude/settings.json: plugin 'packaged@npm-market' comes from marketplace "
        "'npm-market', whose source `marketplace add` cannot take; left out",
    ]
    registry = project.root / ".upskill" / "registry"
    bundle = load_yaml((registry / "imported.bundle.yaml").read_text(), registry)
    assert bundle["plugins"] == {
        "formatter": {
            "claude": {
                "source": "acme/claude-plugins",
                "marketplace": "team-tools",
                "plugin": "formatter",
            }
        },
        "review": {"claude": {"source": "./plugins", "marketplace": "local", "plugin": "review"}},
        "ms-python-python": {"vscode": {"extension": "ms-python.python"}},
    }
    lint = project.run("lint", "--strict", str(registry))
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert project.run("fmt", "--check", str(registry)).returncode == 0
    added = project.run("add", "./.upskill/registry", "imported", "--claude", "--vscode")
    assert added.returncode == 0, added.stderr
    assert project.fakes.argvs() == [
        ["claude", "plugin", "marketplace", "add", "--scope", "project", "acme/claude-plugins"],
        ["claude", "plugin", "install", "formatter@team-tools", "--scope", "project"],
        ["claude", "plugin", "marketplace", "add", "--scope", "project", "./plugins"],
        ["claude", "plugin", "install", "review@local", "--scope", "project"],
        ["code", "--install-extension", "ms-python.python"],
    ]


def test_user_scope_reads_claude_user_settings_only(project) -> None:  # type: ignore[no-untyped-def]
    (project.home / ".claude").mkdir()
    (project.home / ".claude" / "settings.json").write_text(json.dumps(SETTINGS))
    (project.home / ".vscode").mkdir()
    (project.home / ".vscode" / "extensions.json").write_text('{"recommendations": ["a.b"]}')
    out = project.run("import", "-g", "--json", "--dry-run")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["plugins"] == ["formatter", "review"]
