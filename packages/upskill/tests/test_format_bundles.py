"""Bundle manifests: items, requires, typed plugins and mcps (format spec §3.7)."""

from __future__ import annotations

from pathlib import Path

from upskill.format import (
    BundleRequirement,
    McpLocal,
    McpRemote,
    McpServer,
    Plugin,
    PluginConfigWrite,
    PluginExtension,
    PluginInstructions,
    PluginMarketplace,
    PluginModule,
    load_bundle,
)

FULL = """\
schema: 1
name: full
description: Everything a bundle can declare
license: proprietary
items:
  rules: [a-rule]
  skills: [a-skill]
  agents: [an-agent]
requires:
  - { name: "platform-baseline", version: "^1.0.0" }
  - { name: markspec-core, source: "driftsys/markspec@v0.8.0" }
plugins:
  superpowers:
    claude:
      source: anthropics/claude-plugins
      marketplace: claude-plugins
      plugin: superpowers
      install_url: https://github.com/obra/superpowers#install
    copilot:
      source: obra/superpowers-marketplace
      marketplace: superpowers-marketplace
      plugin: superpowers
    vscode:
      extension: anthropic.superpowers
    opencode:
      module: superpowers-opencode
  example:
    opencode:
      plugin_uri: "example@git+https://example.com/repo.git"
    claude:
      instructions_url: https://example.com/install-docs
      summary: |
        Add it by hand.
mcps:
  drawio:
    remote:
      type: http
      url: https://mcp.draw.io/mcp
      headers:
        Authorization: "Bearer ${DRAWIO_TOKEN}"
    requires-env: [DRAWIO_TOKEN]
  my-tool:
    local:
      command: npx
      args: ["-y", "my-tool-mcp"]
      env:
        API_KEY: "${MY_TOOL_API_KEY}"
metadata:
  version: "1.2.0"
x-extra: kept
"""


def test_full_bundle_is_typed(tmp_path: Path) -> None:
    path = tmp_path / "full.bundle.yaml"
    path.write_text(FULL)
    bundle = load_bundle(path)
    assert (bundle.name, bundle.schema, bundle.license) == ("full", 1, "proprietary")
    assert bundle.items.rules == ("a-rule",) and bundle.items.agents == ("an-agent",)
    assert bundle.requires == (
        BundleRequirement("platform-baseline", "^1.0.0", None),
        BundleRequirement("markspec-core", None, "driftsys/markspec@v0.8.0"),
    )
    assert bundle.plugins == (
        Plugin(
            "superpowers",
            {
                "claude": PluginMarketplace(
                    "anthropics/claude-plugins",
                    "claude-plugins",
                    "superpowers",
                    "https://github.com/obra/superpowers#install",
                ),
                "copilot": PluginMarketplace(
                    "obra/superpowers-marketplace", "superpowers-marketplace", "superpowers"
                ),
                "vscode": PluginExtension("anthropic.superpowers"),
                "opencode": PluginModule("superpowers-opencode"),
            },
        ),
        Plugin(
            "example",
            {
                "opencode": PluginConfigWrite("example@git+https://example.com/repo.git"),
                "claude": PluginInstructions(
                    "https://example.com/install-docs", "Add it by hand.\n"
                ),
            },
        ),
    )
    assert bundle.mcps == (
        McpServer(
            "drawio",
            McpRemote(
                "http", "https://mcp.draw.io/mcp", {"Authorization": "Bearer ${DRAWIO_TOKEN}"}
            ),
            ("DRAWIO_TOKEN",),
        ),
        McpServer(
            "my-tool",
            McpLocal("npx", ("-y", "my-tool-mcp"), {"API_KEY": "${MY_TOOL_API_KEY}"}),
            (),
        ),
    )
    assert bundle.metadata == {"version": "1.2.0"}
    assert bundle.extras == {"x-extra": "kept"}
    assert bundle.warnings == ()


def test_install_form_wins_over_instructions_with_warning(tmp_path: Path) -> None:
    path = tmp_path / "b.bundle.yaml"
    path.write_text(
        "schema: 1\nname: b\ndescription: d\nplugins:\n  p:\n    vscode:\n"
        "      extension: e\n      instructions_url: https://x\n"
    )
    bundle = load_bundle(path)
    assert bundle.plugins == (Plugin("p", {"vscode": PluginExtension("e")}),)
    assert bundle.warnings == (
        "'plugins.p.vscode' mixes install and instructions fields; the install form wins",
    )


def test_minimal_bundle(tmp_path: Path) -> None:
    path = tmp_path / "tiny.bundle.yaml"
    path.write_text("schema: 1\nname: tiny\ndescription: d\n")
    bundle = load_bundle(path)
    assert (bundle.items.rules, bundle.requires, bundle.plugins, bundle.mcps) == ((), (), (), ())


def test_opencode_module_wins_over_plugin_uri_with_warning(tmp_path: Path) -> None:
    path = tmp_path / "b.bundle.yaml"
    path.write_text(
        "schema: 1\nname: b\ndescription: d\nplugins:\n  p:\n    opencode:\n"
        "      module: m\n      plugin_uri: u\n"
    )
    bundle = load_bundle(path)
    assert bundle.plugins == (Plugin("p", {"opencode": PluginModule("m")}),)
    assert bundle.warnings == (
        "'plugins.p.opencode' has both module and plugin_uri; the module form wins",
    )
