"""Pure: what to run for a plugin descriptor, and how to recognise it afterwards."""

from __future__ import annotations

from upskill.clientconf import places as client_places
from upskill.clientconf.places import ConfigLocation, Places, Scope
from upskill.clients import get
from upskill.clients.base import PluginRoute, PluginStyle
from upskill.format.model import (
    PluginConfigWrite,
    PluginDescriptor,
    PluginExtension,
    PluginInstructions,
    PluginMarketplace,
    PluginModule,
)


def route(client: str) -> PluginRoute:
    """A client's plugin route; a client without one is a caller's bug, never a fallback."""
    found = get(client).plugins
    if found is None:
        raise KeyError(f"{client} takes no plugins")
    return found


PLUGIN_KEY = "plugin"  # opencode.json's plugin array


def identifier(descriptor: PluginDescriptor) -> str:
    """The lockfile identifier: `plugin@marketplace`, extension id, module, URI or docs URL."""
    if isinstance(descriptor, PluginMarketplace):
        return f"{descriptor.plugin}@{descriptor.marketplace}"
    if isinstance(descriptor, PluginExtension):
        return descriptor.extension
    if isinstance(descriptor, PluginModule):
        return descriptor.module
    if isinstance(descriptor, PluginConfigWrite):
        return descriptor.plugin_uri
    return descriptor.instructions_url


def install_url(descriptor: PluginDescriptor) -> str | None:
    if isinstance(descriptor, PluginInstructions):
        return descriptor.instructions_url
    return descriptor.install_url


def _scope_args(client: str, scope: Scope) -> list[str]:
    return ["--scope", scope.value] if route(client).scope_flag else []


def value_problem(value: str) -> str | None:
    """Why `value` may not reach a client CLI's argument list (it would read as an option,
    or is blank), or None. The install and the remove side both ask."""
    if value.startswith("-") or not value.strip():
        return f"refusing {value!r}: it would be read as a command-line option"
    return None


def argument_problem(descriptor: PluginDescriptor) -> str | None:
    """A descriptor value that may not reach a client CLI (`value_problem`), or None."""
    values = [v for v in vars(descriptor).values() if isinstance(v, str)]
    for value in values:
        problem = value_problem(value)
        if problem is not None:
            return problem
    return None


def install_argvs(client: str, descriptor: PluginDescriptor, scope: Scope) -> list[list[str]]:
    """Commands in order; empty for forms that are not CLI installs."""
    exe = route(client).exe
    if isinstance(descriptor, PluginMarketplace):
        ref = identifier(descriptor)
        # Claude Code declares the marketplace where it is told (user by default): a
        # project install declares it in the project, or teammates get only
        # `enabledPlugins` and a marketplace they do not have.
        return [
            [exe, "plugin", "marketplace", "add", *_scope_args(client, scope), descriptor.source],
            [exe, "plugin", "install", ref, *_scope_args(client, scope)],
        ]
    if isinstance(descriptor, PluginExtension):
        return [[exe, "--install-extension", descriptor.extension]]
    if isinstance(descriptor, PluginModule):
        # `opencode plugin <module> [-g]` installs and records it (opencode 1.18.33 --help)
        return [[exe, "plugin", descriptor.module, *(["-g"] if scope is Scope.USER else [])]]
    return []


def uninstall_argv(client: str, ident: str, scope: Scope) -> list[str] | None:
    """None for opencode: `opencode plugin` has no `remove` (it would try to install an
    npm package named "remove"); its config files are edited instead."""
    exe, style = route(client).exe, route(client).style
    if style is PluginStyle.EXTENSION:
        return [exe, "--uninstall-extension", ident]
    if style is PluginStyle.OPENCODE:
        return None
    return [exe, "plugin", "uninstall", ident, *_scope_args(client, scope)]


def list_argv(client: str, scope: Scope) -> list[str] | None:
    """None for opencode, which has no `plugin list` (it would install a package named
    "list", and hang on a closed stdin): its config files are read instead."""
    exe, style = route(client).exe, route(client).style
    if style is PluginStyle.OPENCODE:
        return None
    if style is PluginStyle.EXTENSION:
        return [exe, "--list-extensions"]
    # `claude plugin list` has no --scope (Claude Code 2.1.197: "unknown option '--scope'")
    return [exe, "plugin", "list"]


def is_listed(client: str, ident: str, output: str) -> bool:
    """Whether a listing names the plugin (extension ids are case-insensitive)."""
    for line in output.splitlines():
        text = line.strip()
        if route(client).style is PluginStyle.EXTENSION:
            if text.split("@")[0].lower() == ident.lower():
                return True
        elif ident in text.split():
            return True
    return False


def opencode_config(scope: Scope, places: Places) -> ConfigLocation:
    """opencode.json holding `plugin[]`: the project's, or the user's in global scope."""
    return client_places.opencode_config(scope, places, PLUGIN_KEY)


def opencode_plugin_files(scope: Scope, places: Places) -> tuple[ConfigLocation, ...]:
    """Every config file whose `plugin[]` opencode reads for a scope: `opencode plugin`
    records a module in `.opencode/opencode.json`, a config write in `opencode.json`."""
    if scope is Scope.USER:
        return (opencode_config(scope, places),)
    folder = places.root / ".opencode"
    own = ConfigLocation(
        folder / "opencode.json", PLUGIN_KEY, (folder / "opencode.jsonc",), places.root
    )
    return (opencode_config(scope, places), own)
