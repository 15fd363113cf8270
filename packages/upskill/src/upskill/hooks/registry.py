"""The registered hooks, by dotted name, imported on first use.

Naming them as strings keeps the dependency one way: the MCP and plugin
packages import the protocol (`upskill.hooks.api`); nothing the lifecycle
imports statically imports them, so a run without bundles never loads them.
"""

from __future__ import annotations

import importlib
from typing import cast

from upskill.hooks.api import BundleHook

# "module:class"; each class is built without arguments. Order is call order.
HOOKS: tuple[str, ...] = (
    "upskill.mcp.hook:McpHook",
    "upskill.plugins.hook:PluginHook",
)


def load_hook(dotted: str) -> BundleHook:
    module, _, name = dotted.partition(":")
    return cast(BundleHook, getattr(importlib.import_module(module), name)())


def registered_hooks() -> list[BundleHook]:
    return [load_hook(dotted) for dotted in HOOKS]
