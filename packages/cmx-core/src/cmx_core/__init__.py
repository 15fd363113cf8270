"""cmx-core: install a tool's companion skill into every agent platform it finds."""

__version__ = "0.1.0"
