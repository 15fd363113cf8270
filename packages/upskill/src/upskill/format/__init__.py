"""The portable SSOT format: parse, validate and discover items and bundles.

Data flow: bytes -> frontmatter split -> YAML 1.2 -> typed, validated values
(`Rule`, `Skill`, `Agent`, `Bundle`). Everything needed to render an item is
read here, so rendering is pure.
"""

from upskill.format.bundles import BUNDLE_SUFFIX, load_bundle, parse_bundle
from upskill.format.directives import process_directives, validate_directives
from upskill.format.discover import Catalog, discover
from upskill.format.frontmatter import SplitDocument, split_frontmatter
from upskill.format.items import load_item_dir, parse_entrypoint, read_text
from upskill.format.model import (
    ENTRYPOINTS,
    KINDS,
    SUPPORTED_SCHEMA,
    Agent,
    BaseItem,
    Bundle,
    BundleItems,
    BundleRequirement,
    Item,
    Kind,
    McpLocal,
    McpRemote,
    McpServer,
    Plugin,
    PluginConfigWrite,
    PluginDescriptor,
    PluginExtension,
    PluginInstructions,
    PluginMarketplace,
    PluginModule,
    Requirement,
    Requires,
    Resource,
    Rule,
    Skill,
)
from upskill.format.names import check_name, name_problem
from upskill.format.resources import is_ignored
from upskill.format.vocabulary import CAPABILITIES

__all__ = [
    "BUNDLE_SUFFIX",
    "CAPABILITIES",
    "ENTRYPOINTS",
    "KINDS",
    "SUPPORTED_SCHEMA",
    "Agent",
    "BaseItem",
    "Bundle",
    "BundleItems",
    "BundleRequirement",
    "Catalog",
    "Item",
    "Kind",
    "McpLocal",
    "McpRemote",
    "McpServer",
    "Plugin",
    "PluginConfigWrite",
    "PluginDescriptor",
    "PluginExtension",
    "PluginInstructions",
    "PluginMarketplace",
    "PluginModule",
    "Requirement",
    "Requires",
    "Resource",
    "Rule",
    "Skill",
    "SplitDocument",
    "check_name",
    "discover",
    "is_ignored",
    "load_bundle",
    "load_item_dir",
    "name_problem",
    "parse_bundle",
    "parse_entrypoint",
    "process_directives",
    "read_text",
    "split_frontmatter",
    "validate_directives",
]
