"""Plugins: install / uninstall / reconcile against fake client CLIs."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from upskill.author.lint.plugins import plugin_descriptor_warnings
from upskill.clientconf.clientcli import SubprocessCli
from upskill.clientconf.places import Places, Scope
from upskill.format import load_bundle
from upskill.format.model import (
    Plugin,
    PluginConfigWrite,
    PluginExtension,
    PluginInstructions,
    PluginMarketplace,
    PluginModule,
)
from upskill.plugins.install import PluginReport, install_plugins
from upskill.plugins.model import PluginRecord, PluginStatus
from upskill.plugins.reconcile import reconcile_plugins
from upskill.plugins.uninstall import uninstall_plugins

SUPERPOWERS = Plugin(
    "superpowers",
    {
        "claude": PluginMarketplace(
            "anthropics/claude-plugins", "claude-plugins", "superpowers",
            "https://github.com/obra/superpowers#install",
        ),
        "copilot": PluginMarketplace(
            "obra/superpowers-marketplace", "superpowers-marketplace", "superpowers"
        ),
        "vscode": PluginExtension("anthropic.superpowers"),
        "opencode": PluginModule("superpowers-opencode"),
    },
)  # fmt: skip
CONFIGURED = Plugin("example", {"opencode": PluginConfigWrite("example@git+https://e.x/r.git")})
MANUAL = Plugin(
    "manual", {"claude": PluginInstructions("https://e.x/docs", "Run the thing.\nThen restart.")}
)
ALL = ("claude", "copilot", "vscode", "opencode")


def install(
    fakes: Any, places: Places, plugins: tuple[Plugin, ...], clients: tuple[str, ...] = ALL,
    scope: Scope = Scope.PROJECT,
) -> PluginReport:  # fmt: skip
    return install_plugins(
        plugins, clients, scope=scope, bundle="baseline", places=places,
        cli=SubprocessCli(fakes.env),
    )  # fmt: skip


def test_auto_install_every_client(fake_clients: Callable[..., Any], places: Places) -> None:
    fakes = fake_clients()
    report = install(fakes, places, (SUPERPOWERS,))
    assert fakes.argvs() == [
        [
            "claude",
            "plugin",
            "marketplace",
            "add",
            "--scope",
            "project",
            "anthropics/claude-plugins",
        ],
        ["claude", "plugin", "install", "superpowers@claude-plugins", "--scope", "project"],
        ["copilot", "plugin", "marketplace", "add", "obra/superpowers-marketplace"],
        ["copilot", "plugin", "install", "superpowers@superpowers-marketplace"],
        ["code", "--install-extension", "anthropic.superpowers"],
        ["opencode", "plugin", "superpowers-opencode"],
    ]
    assert report.records == (
        PluginRecord("superpowers", "claude", "superpowers@claude-plugins", Scope.PROJECT,
                     "baseline", PluginStatus.INSTALLED),
        PluginRecord("superpowers", "copilot", "superpowers@superpowers-marketplace",
                     Scope.PROJECT, "baseline", PluginStatus.INSTALLED),
        PluginRecord("superpowers", "vscode", "anthropic.superpowers", Scope.PROJECT,
                     "baseline", PluginStatus.INSTALLED),
        PluginRecord("superpowers", "opencode", "superpowers-opencode", Scope.PROJECT,
                     "baseline", PluginStatus.INSTALLED),
    )  # fmt: skip
    assert report.warnings == () and report.failed == ()


def test_user_scope_and_selection(fake_clients: Callable[..., Any], places: Places) -> None:
    fakes = fake_clients()
    report = install(fakes, places, (SUPERPOWERS,), ("claude",), Scope.USER)
    assert fakes.argvs() == [
        ["claude", "plugin", "marketplace", "add", "--scope", "user", "anthropics/claude-plugins"],
        ["claude", "plugin", "install", "superpowers@claude-plugins", "--scope", "user"],
    ]
    assert [r.client for r in report.records] == ["claude"]


def test_missing_cli_warn_skips_with_install_url(
    fake_clients: Callable[..., Any], places: Places
) -> None:
    fakes = fake_clients(present=("code",))
    report = install(fakes, places, (SUPERPOWERS,))
    assert [(r.client, r.status) for r in report.records] == [
        ("claude", PluginStatus.SKIPPED),
        ("copilot", PluginStatus.SKIPPED),
        ("vscode", PluginStatus.INSTALLED),
        ("opencode", PluginStatus.SKIPPED),
    ]
    assert report.warnings[0] == (
        "plugin superpowers (claude): claude CLI not found, skipped; "
        "install it by hand: https://github.com/obra/superpowers#install"
    )
    assert report.warnings[1] == "plugin superpowers (copilot): copilot CLI not found, skipped"


def test_failing_cli_is_not_recorded(fake_clients: Callable[..., Any], places: Places) -> None:
    fakes = fake_clients(fail=("claude",))
    report = install(fakes, places, (SUPERPOWERS,), ("claude", "vscode"))
    assert [r.client for r in report.records] == ["vscode"]
    assert report.failed == (("superpowers", "claude"),)
    assert report.warnings == (
        "plugin superpowers (claude): not installed: "
        "`claude plugin marketplace` failed: fake claude: simulated failure; "
        "`claude plugin install` failed: fake claude: simulated failure",
    )


def test_instructions_and_config_write(fake_clients: Callable[..., Any], places: Places) -> None:
    fakes = fake_clients()
    (places.root / "opencode.json").write_text(
        '{\n  // mine\n  "plugin": ["other"],\n  "theme": "dark"\n}\n'
    )
    report = install(fakes, places, (MANUAL, CONFIGURED))
    assert fakes.argvs() == []
    assert report.records == (
        PluginRecord("manual", "claude", "https://e.x/docs", Scope.PROJECT, "baseline",
                     PluginStatus.INSTRUCTIONS),
        PluginRecord("example", "opencode", "example@git+https://e.x/r.git", Scope.PROJECT,
                     "baseline", PluginStatus.INSTALLED),
    )  # fmt: skip
    assert report.notices[0] == (
        "plugin manual (claude): install it manually, see https://e.x/docs\n"
        "  Run the thing.\n  Then restart."
    )
    assert (places.root / "opencode.json").read_text() == (
        '{\n  // mine\n  "plugin": ["other", "example@git+https://e.x/r.git"],\n'
        '  "theme": "dark"\n}\n'
    )
    again = install(fakes, places, (MANUAL, CONFIGURED))
    assert again.records == report.records
    assert json.loads((places.root / "opencode.json").read_text().replace("// mine", ""))[
        "plugin"
    ] == ["other", "example@git+https://e.x/r.git"]
    uninstall_plugins(report.records, places=places, cli=SubprocessCli(fakes.env))
    assert (places.root / "opencode.json").read_text() == (
        '{\n  // mine\n  "plugin": ["other"],\n  "theme": "dark"\n}\n'
    )


def test_uninstall_and_reconcile(fake_clients: Callable[..., Any], places: Places) -> None:
    fakes = fake_clients()
    report = install(fakes, places, (SUPERPOWERS, MANUAL))
    cli = SubprocessCli(fakes.env)
    checks = reconcile_plugins(report.records, places=places, cli=cli)
    assert checks.missing == () and checks.skipped == () and checks.unverified == ()
    # Out-of-band uninstall of the VS Code extension is drift.
    cli.run(["code", "--uninstall-extension", "anthropic.superpowers"], places.root)
    checks = reconcile_plugins(report.records, places=places, cli=cli)
    assert [r.to_json() for r in checks.missing] == [
        {"name": "superpowers", "client": "vscode", "identifier": "anthropic.superpowers",
         "bundle": "baseline"},
    ]  # fmt: skip
    fakes.clear_log()
    result = uninstall_plugins(report.records, places=places, cli=cli)
    assert fakes.argvs() == [
        ["claude", "plugin", "uninstall", "superpowers@claude-plugins", "--scope", "project"],
        ["copilot", "plugin", "uninstall", "superpowers@superpowers-marketplace"],
        ["code", "--uninstall-extension", "anthropic.superpowers"],
    ]  # opencode has no `plugin remove`: its config file is edited
    assert json.loads((places.root / ".opencode/opencode.json").read_text()) == {}
    assert result.warnings == (
        "plugin superpowers (vscode): `code --uninstall-extension anthropic.superpowers` "
        "failed: Extension 'anthropic.superpowers' is not installed.",
    )
    assert fakes.state("claude")["plugins"] == []


def test_reconcile_skipped_and_unverifiable(
    fake_clients: Callable[..., Any], places: Places
) -> None:
    fakes = fake_clients(present=("claude",))
    report = install(fakes, places, (SUPERPOWERS,), ("claude", "copilot"))
    fakes.present(())
    checks = reconcile_plugins(report.records, places=places, cli=SubprocessCli(fakes.env))
    assert [r.client for r in checks.skipped] == ["copilot"]
    assert [(r.client, why) for r, why in checks.unverified] == [("claude", "claude CLI not found")]
    assert checks.missing == ()


def test_lint_warnings(tmp_path: Path) -> None:
    path = tmp_path / "b.bundle.yaml"
    path.write_text(
        "schema: 1\nname: b\ndescription: d\nplugins:\n"
        "  one:\n    claude:\n      source: org/market\n      marketplace: org/market\n"
        "      plugin: one\n"
        "  two:\n    opencode:\n      module: two\n      instructions_url: https://e.x\n"
    )
    assert plugin_descriptor_warnings(load_bundle(path)) == [
        "'plugins.two.opencode' mixes install and instructions fields; the install form wins",
        "'plugins.one.claude.marketplace' repeats 'source'; it must be the registered "
        "marketplace name (e.g. 'claude-plugins' for 'anthropics/claude-plugins')",
    ]


def test_option_like_plugin_values_are_refused(
    fake_clients: Callable[..., Any], places: Places
) -> None:
    fakes = fake_clients()
    evil = Plugin("evil", {"vscode": PluginExtension("--uninstall-extension=x")})
    report = install(fakes, places, (evil,))
    assert fakes.argvs() == [] and report.records == ()
    assert report.warnings == (
        "plugin evil (vscode): not installed: refusing '--uninstall-extension=x': "
        "it would be read as a command-line option",
    )


def test_opencode_modules_never_run_subcommands_opencode_lacks(
    fake_clients: Callable[..., Any], places: Places, monkeypatch: pytest.MonkeyPatch
) -> None:
    """opencode 1.18.33 has `plugin <module> [-g]` only: a user-scope install passes -g,
    doctor reads the config file instead of `plugin list`, and removal edits the file
    instead of `plugin remove`, dropping the emptied array (issue 14, 8)."""
    fakes = fake_clients()
    monkeypatch.setenv("HOME", str(places.home))
    env = {**fakes.env, "HOME": str(places.home), "XDG_CONFIG_HOME": str(places.config_home)}
    cli = SubprocessCli(env)
    report = install_plugins(
        (SUPERPOWERS,), ("opencode",), scope=Scope.USER, bundle="baseline", places=places, cli=cli
    )
    assert fakes.argvs() == [["opencode", "plugin", "superpowers-opencode", "-g"]]
    config = places.config_home / "opencode" / "opencode.json"
    assert json.loads(config.read_text()) == {"plugin": ["superpowers-opencode"]}
    fakes.clear_log()
    assert reconcile_plugins(report.records, places=places, cli=cli).missing == ()
    config.write_text('{"plugin": []}\n')  # removed out of band: drift
    assert [
        r.client for r in reconcile_plugins(report.records, places=places, cli=cli).missing
    ] == ["opencode"]
    config.write_text('{"plugin": ["superpowers-opencode"], "theme": "x"}\n')
    uninstall_plugins(report.records, places=places, cli=cli)
    assert json.loads(config.read_text()) == {"theme": "x"}
    assert fakes.argvs() == []
