"""Hooks are registered by dotted name and loaded only when a run has bundles."""

from __future__ import annotations

import subprocess
import sys

from upskill.hooks.registry import HOOKS, load_hook, registered_hooks


def test_every_registered_name_loads_a_hook() -> None:
    hooks = registered_hooks()
    assert [type(h).__name__ for h in hooks] == ["McpHook", "PluginHook"]
    for dotted in HOOKS:
        hook = load_hook(dotted)
        assert callable(hook.install) and callable(hook.remove) and callable(hook.doctor)


def test_the_lifecycle_imports_no_extension_code_until_a_bundle_needs_it() -> None:
    code = (
        "import sys, upskill.lifecycle.flow, upskill.lifecycle.extensions; "
        "print(sorted(m for m in sys.modules if m.startswith(('upskill.mcp', 'upskill.plugins'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out == "[]\n"
