"""Author-time warnings about plugin descriptors (called by `upskill lint`)."""

from __future__ import annotations

from upskill.format.model import Bundle, PluginMarketplace


def plugin_descriptor_warnings(bundle: Bundle) -> list[str]:
    """Ambiguous or likely-wrong descriptors: warnings, never errors.

    The format parser already notes blocks mixing install and instructions
    fields (the install form wins); this adds the mistake the spec calls out:
    a `marketplace` that repeats `source`, which makes the install ref
    `<plugin>@<source>` fail ("Plugin not found in marketplace").
    """
    found = [w for w in bundle.warnings if w.startswith("'plugins.")]
    for plugin in bundle.plugins:
        for client, descriptor in plugin.clients.items():
            if isinstance(descriptor, PluginMarketplace) and (
                descriptor.marketplace == descriptor.source and "/" in descriptor.source
            ):
                found.append(
                    f"'plugins.{plugin.name}.{client}.marketplace' repeats 'source'; it must be "
                    "the registered marketplace name (e.g. 'claude-plugins' for "
                    "'anthropics/claude-plugins')"
                )
    return found
