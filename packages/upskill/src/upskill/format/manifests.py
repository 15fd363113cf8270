"""Claude plugin-marketplace manifests, as discovery reads them (issue 16).

A published collection may say where its plugins and skills are:
`.claude-plugin/marketplace.json` lists plugins, each with a `source` (a path
relative to the repository, or to `metadata.pluginRoot`) and optionally a
`skills` array of paths relative to that source; each plugin directory may hold
`.claude-plugin/plugin.json` with its `name` and extra `skills` paths. Without a
marketplace, `plugins/<p>/.claude-plugin/plugin.json` files are read the same
way.

Manifests only add places to look: directory discovery runs as well. A
manifest that is not valid JSON, or a path that is absolute, leaves the source
tree or does not exist, is one note (a warning naming the file) and is
otherwise ignored. A plugin whose source is another repository (`{"source":
"github", ...}`) is not part of this source and is skipped silently.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from upskill.errors import FormatError
from upskill.format.items import read_text

MARKETPLACE = ".claude-plugin/marketplace.json"
PLUGIN = ".claude-plugin/plugin.json"
MAX_MANIFEST_BYTES = 1024 * 1024


@dataclass(frozen=True)
class PluginRoot:
    """One plugin of the source: its directory, the name and description the manifests
    give it (None when none does), and the paths its `skills` arrays list."""

    root: Path
    name: str | None
    description: str
    skill_paths: tuple[Path, ...]
    # The marketplace entry lists the plugin's skills (`strict: false` plugins): they
    # are all of them. Paths from plugin.json add to the plugin's own `skills/`.
    listed: bool = False


@dataclass(frozen=True)
class Manifests:
    plugins: tuple[PluginRoot, ...] = ()
    notes: tuple[FormatError, ...] = ()


class _Reader:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.real_root = root.resolve()
        self.notes: list[FormatError] = []

    def note(self, path: Path, message: str, line: int | None = None) -> None:
        self.notes.append(FormatError(message, path=path, line=line))

    def load(self, path: Path) -> dict[str, Any] | None:
        """The manifest's top-level object, or None (with a note) when it is unreadable."""
        try:
            text = read_text(path, limit=MAX_MANIFEST_BYTES)
        except FormatError as exc:
            self.note(path, f"{exc.message}; discovering by directory layout")
            return None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            self.note(path, f"invalid JSON: {exc.msg}; discovering by directory layout", exc.lineno)
            return None
        if not isinstance(data, dict):
            self.note(path, "not a JSON object; discovering by directory layout")
            return None
        return data

    def inside(self, manifest: Path, base: Path, value: Any, what: str) -> Path | None:
        """`value` as a directory under `base` within the source tree; None (with a note
        for a path that leaves the tree or is missing) otherwise."""
        if type(value) is not str or not value.strip():
            return None
        rel = PurePosixPath(value)
        if rel.is_absolute() or "://" in value:
            self.note(manifest, f"{what} {value!r} is not a relative path; ignored")
            return None
        target = Path(os.path.normpath(base / rel))
        real = target.resolve()
        if not (real == self.real_root or real.is_relative_to(self.real_root)):
            self.note(manifest, f"{what} {value!r} leaves the source tree; ignored")
            return None
        if not target.is_dir():
            self.note(manifest, f"{what} {value!r} is not a directory in the source; ignored")
            return None
        return target

    def paths(self, manifest: Path, base: Path, value: Any, what: str) -> list[Path]:
        """A `skills` value: one path or a list of them."""
        values = value if isinstance(value, list) else [value]
        found = (self.inside(manifest, base, v, what) for v in values)
        return [p for p in found if p is not None]

    def plugin(self, root: Path, entry: dict[str, Any], manifest: Path | None) -> PluginRoot:
        """A plugin directory with what its marketplace `entry` and plugin.json say."""
        name = entry.get("name")
        description = entry.get("description")
        skills: list[Path] = []
        if manifest is not None and "skills" in entry:
            skills += self.paths(manifest, root, entry["skills"], "skills path")
        own = root / PLUGIN
        if own.is_file() or own.is_symlink():
            data = self.load(own)
            if data is not None:
                name = data.get("name", name)
                description = data.get("description", description)
                if "skills" in data:
                    skills += self.paths(own, root, data["skills"], "skills path")
        return PluginRoot(
            root,
            name if type(name) is str else None,
            description if type(description) is str else "",
            tuple(dict.fromkeys(skills)),
            listed=manifest is not None and "skills" in entry,
        )

    def marketplace(self, path: Path) -> list[PluginRoot] | None:
        data = self.load(path)
        if data is None:
            return None
        meta = data.get("metadata")
        base = self.root
        if isinstance(meta, dict) and "pluginRoot" in meta:
            base = self.inside(path, self.root, meta["pluginRoot"], "pluginRoot") or self.root
        entries = data.get("plugins")
        if not isinstance(entries, list):
            self.note(path, "has no `plugins` list; discovering by directory layout")
            return None
        plugins: list[PluginRoot] = []
        for entry in entries:
            if not isinstance(entry, dict):
                continue
            source = entry.get("source")
            if type(source) is not str:
                continue  # another repository ({"source": "github", ...}): not this source
            root = self.inside(path, base, source, f"plugin {entry.get('name')!r} source")
            if root is not None:
                plugins.append(self.plugin(root, entry, path))
        return plugins


def read_manifests(root: Path) -> Manifests:
    """The plugins `root`'s manifests name, and a note for each manifest problem."""
    reader = _Reader(root)
    marketplace = root / MARKETPLACE
    plugins: list[PluginRoot] | None = None
    if marketplace.is_file() or marketplace.is_symlink():
        plugins = reader.marketplace(marketplace)
    if plugins is None:
        plugins = []
        parent = root / "plugins"
        if parent.is_dir() and not parent.is_symlink():
            for child in sorted(parent.iterdir()):
                if not child.is_symlink() and (child / PLUGIN).is_file():
                    plugins.append(reader.plugin(child, {}, None))
    return Manifests(tuple(plugins), tuple(reader.notes))
