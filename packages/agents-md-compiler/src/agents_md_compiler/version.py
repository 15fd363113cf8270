"""Installed distribution version; never required to exist, never rendered."""

from __future__ import annotations

from importlib import metadata

from agents_md_compiler.models import DISTRIBUTION

UNKNOWN_VERSION = "0.0.0+unknown"


def installed_version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return UNKNOWN_VERSION
