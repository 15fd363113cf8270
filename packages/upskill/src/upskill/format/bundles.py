"""Parse and validate `*.bundle.yaml` manifests (format spec §2.2, §3.7)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from upskill.errors import FormatError
from upskill.format.extensions import parse_mcps, parse_plugins
from upskill.format.fields import Fields
from upskill.format.items import check_description, check_schema, metadata_warnings, read_text
from upskill.format.model import KINDS, Bundle, BundleItems, BundleRequirement
from upskill.format.names import check_name
from upskill.format.yamlio import load_yaml, top_level_key_lines

BUNDLE_SUFFIX = ".bundle.yaml"
BUNDLE_KEYS: tuple[str, ...] = (
    "schema",
    "name",
    "description",
    "license",
    "items",
    "requires",
    "plugins",
    "mcps",
    "metadata",
)


def bundle_stem(path: Path) -> str:
    return path.name.removesuffix(BUNDLE_SUFFIX)


def _items(fields: Fields) -> BundleItems:
    raw = fields.kind_map("items")
    if raw is None:
        return BundleItems()
    parsed: dict[str, tuple[str, ...]] = {}
    line = fields.line_of("items")
    for kind in KINDS:
        names = fields.string_list("items", value=raw.get(kind.plural)) or ()
        parsed[kind.plural] = tuple(check_name(n, fields.path, line) for n in names)
    return BundleItems(**parsed)


def _requirement(fields: Fields, entry: Any) -> BundleRequirement:
    if not isinstance(entry, dict):
        raise fields.error(
            "requires", "'requires' entries must be maps like { name: x, version: ^1.0.0 }"
        )
    unknown = sorted(set(entry) - {"name", "version", "source"})
    if unknown:
        raise fields.error("requires", f"'requires' entry has unknown key(s): {', '.join(unknown)}")
    name = entry.get("name")
    if type(name) is not str:
        raise fields.error("requires", "'requires' entry needs a string 'name'")
    return BundleRequirement(
        check_name(name, fields.path, fields.line_of("requires")),
        fields.string("requires", value=entry.get("version")),
        fields.string("requires", value=entry.get("source")),
    )


def parse_bundle(text: str, path: Path) -> Bundle:
    data = load_yaml(text, path)
    if not isinstance(data, dict):
        raise FormatError("a bundle manifest must be a YAML mapping", path=path, line=1)
    fields = Fields(data, path, top_level_key_lines(text), 1)
    schema = check_schema(fields, required=True)
    name = fields.string("name", required=True)
    assert name is not None
    check_name(name, path, fields.line_of("name"))
    if name != bundle_stem(path):
        raise fields.error(
            "name", f"bundle name {name!r} must match the file name stem {bundle_stem(path)!r}"
        )
    requires = data.get("requires")
    if requires is not None and not isinstance(requires, list):
        raise fields.error("requires", "'requires' must be a list")
    plugins, plugin_warnings = parse_plugins(fields)
    metadata = fields.mapping("metadata") or {}
    return Bundle(
        name=name,
        description=check_description(fields),
        schema=schema,
        path=path,
        license=fields.string("license"),
        items=_items(fields),
        requires=tuple(_requirement(fields, e) for e in requires or ()),
        plugins=plugins,
        mcps=parse_mcps(fields),
        metadata=metadata,
        extras={k: v for k, v in data.items() if k not in BUNDLE_KEYS},
        warnings=plugin_warnings + metadata_warnings(metadata),
    )


def load_bundle(path: Path) -> Bundle:
    """Load an explicitly named bundle; a file without an integer schema is an error."""
    if not path.name.endswith(BUNDLE_SUFFIX):
        raise FormatError(f"a bundle file name must end with {BUNDLE_SUFFIX}", path=path)
    return parse_bundle(read_text(path), path)


def is_discoverable_bundle(path: Path) -> bool:
    """Discovery skips `.bundle.yaml` files without a top-level integer `schema:`."""
    try:
        data = load_yaml(read_text(path), path)
    except FormatError:
        return True  # malformed YAML is reported, not silently skipped
    return isinstance(data, dict) and type(data.get("schema")) is int
