"""A libyaml fast path that gives exactly what the ruamel YAML 1.2 loader gives, or defers.

Pure-Python ruamel parses a frontmatter block in about half a millisecond;
libyaml (PyYAML's C extension) does it several times faster. libyaml itself
only scans and parses: tag resolution and construction stay in Python and are
replaced here by a copy of ruamel's own YAML 1.2 implicit-resolver table
(`yes`/`no`/`on`/`off` stay strings; `0o17`, `0x1f`, `0b1`, `1_000` are ints;
`017` is 17) and of its int/float/bool/null constructors.

Whatever this path cannot guarantee byte-for-byte is deferred to ruamel, which
then produces the value or the exact error: anchors, aliases, tags and
directives (screened out before parsing), timestamps, merge keys and `=`,
duplicate or non-scalar keys, YAML 1.1 line breaks (NEL, LS, PS), a block
scalar led by a blank line shallower than a later one (ruamel refuses it,
libyaml does not), and any libyaml error. Equivalence is a differential property test
(tests/test_format_yaml_fast.py), and a test pins the copied resolver table to
ruamel's.
"""

from __future__ import annotations

import functools
import re
from typing import Any

STR = "tag:yaml.org,2002:str"
SEQ = "tag:yaml.org,2002:seq"
MAP = "tag:yaml.org,2002:map"
NULL = "tag:yaml.org,2002:null"
BOOL = "tag:yaml.org,2002:bool"
INT = "tag:yaml.org,2002:int"
FLOAT = "tag:yaml.org,2002:float"
TIMESTAMP = "tag:yaml.org,2002:timestamp"
MERGE = "tag:yaml.org,2002:merge"
VALUE = "tag:yaml.org,2002:value"
YAML_TAG = "tag:yaml.org,2002:yaml"

# ruamel 0.18/0.19 `VersionedResolver` entries for YAML 1.2, in its order:
# (tag, pattern, first characters). tests pin this copy to ruamel's table.
RESOLVERS_1_2: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (BOOL, r"^(?:true|True|TRUE|false|False|FALSE)$", tuple("tTfF")),
    (
        FLOAT,
        r"^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)"
        r"|[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)"
        r"|\.(?:nan|NaN|NAN))$",
        tuple("-+0123456789."),
    ),
    (
        INT,
        r"^(?:[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?[0-9_]+|[-+]?0x[0-9a-fA-F_]+)$",
        tuple("-+0123456789"),
    ),
    (MERGE, r"^(?:<<)$", ("<",)),
    (NULL, r"^(?:~|null|Null|NULL|)$", ("~", "n", "N", "")),
    (
        TIMESTAMP,
        r"^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]"
        r"|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?"
        r"(?:[Tt]|[ \t]+)[0-9][0-9]?"
        r":[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?"
        r"(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$",
        tuple("0123456789"),
    ),
    (VALUE, r"^(?:=)$", ("=",)),
    (YAML_TAG, r"^(?:!|&|\*)$", tuple("!&*")),
)

# Node properties (`&anchor`, `*alias`, `!tag`) can only start a node, that is
# after a line start, whitespace or a flow indicator; directives and document
# markers start a line. Anything that merely looks like one defers, which is
# always safe. NEL, LS and PS are line breaks in YAML 1.1 (libyaml) only;
# ruamel and libyaml disagree on where a tab may stand and on a block scalar
# header directly followed by `#` (libyaml accepts `|#`).
_UNSAFE = re.compile(
    r"(?:^|[\s\[\]{},:?-])[&*!]|^(?:%|---|\.\.\.)|[\t\x85\u2028\u2029]|[|>][-+0-9]*#", re.M
)

# ruamel (scanner.scan_block_scalar_indentation) refuses a block scalar without
# an indentation indicator whose first line is blank but indented by k spaces
# when a later leading line has more than k ("more indented follow up line than
# first in a block scalar"); libyaml, like YAML 1.2 (8.1.1.1), takes the
# indentation from the first non-empty line and accepts it, so such a document
# defers. Anything on a line ending in what looks like a block scalar header
# counts, which is safe. Registry text is hostile: the line breaks and the
# header are atomic groups, each line is scanned once, the search is linear.
_BREAK = r"(?>\r\n|\r|\n)"
_INDENTED_BLANK_FIRST = re.compile(
    rf"(?<![^\r\n])(?>[^\r\n]*?[|>][-+]?[ ]*(?:#[^\r\n]*)?{_BREAK})"
    rf"( +){_BREAK}(?:[ ]*{_BREAK})*?\1 "
)


# An explicit key indicator (`?` starting a node, then a blank, `:`, a flow
# indicator or the line end): inside a flow sequence libyaml and ruamel disagree on
# what follows (`[?:]`, `[? :]`, `[?::]` are `{null: null}` to libyaml and
# `{":": null}` to ruamel). Frontmatter hardly ever holds one, so it defers.
_EXPLICIT_KEY = re.compile(r"(?:^|[\s\[\]{},])\?(?![^\s:,\[\]{}])", re.M)


class Defer(Exception):
    """The fast path cannot vouch for this document; ask ruamel."""


def _table() -> dict[str, tuple[tuple[str, re.Pattern[str]], ...]]:
    table: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
    for tag, pattern, firsts in RESOLVERS_1_2:
        compiled = re.compile(pattern)
        for first in firsts:
            table.setdefault(first, []).append((tag, compiled))
    return {first: tuple(entries) for first, entries in table.items()}


_BY_FIRST = _table()


def implicit_tag(value: str) -> str:
    """The tag ruamel's YAML 1.2 resolver gives a plain scalar."""
    for tag, pattern in _BY_FIRST.get(value[:1], ()):
        if pattern.match(value):
            return tag
    return STR


def construct_int(text: str) -> int:
    """ruamel's `SafeConstructor.construct_yaml_int` for YAML 1.2."""
    value = text.replace("_", "")
    sign = -1 if value[0] == "-" else 1
    if value[0] in "+-":
        value = value[1:]
    if value == "0":
        return 0
    for prefix, base in (("0b", 2), ("0x", 16), ("0o", 8)):
        if value.startswith(prefix):
            return sign * int(value[2:], base)
    return sign * int(value)


def construct_float(text: str) -> float:
    """ruamel's `SafeConstructor.construct_yaml_float` for YAML 1.2."""
    value = text.replace("_", "").lower()
    sign = -1 if value[0] == "-" else 1
    if value[0] in "+-":
        value = value[1:]
    if value == ".inf":
        return sign * float("inf")
    if value == ".nan":
        return float("nan")
    return sign * float(value)


_SCALARS: dict[str, Any] = {
    STR: str,
    NULL: lambda _text: None,
    BOOL: lambda text: text.lower() == "true",
    INT: construct_int,
    FLOAT: construct_float,
}


@functools.cache
def _loader_class() -> type[Any] | None:
    """The libyaml-backed loader, or None where PyYAML was built without libyaml."""
    import yaml  # type: ignore[import-untyped]  # PyYAML ships no type information
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode  # type: ignore[import-untyped]

    if not getattr(yaml, "__with_libyaml__", False):
        return None

    class Loader(yaml.CSafeLoader):  # type: ignore[misc]
        def resolve(self, kind: type[Any], value: str | None, implicit: Any) -> str:
            if kind is ScalarNode:
                assert value is not None
                return implicit_tag(value) if implicit[0] else STR
            return SEQ if kind is SequenceNode else MAP

        def construct_object(self, node: Any, deep: bool = False) -> Any:
            if type(node) is ScalarNode:
                build = _SCALARS.get(node.tag)
                if build is None:
                    raise Defer(node.tag)
                return build(node.value)
            if type(node) is SequenceNode:
                return [self.construct_object(child) for child in node.value]
            if type(node) is MappingNode and node.tag == MAP:
                mapping: dict[Any, Any] = {}
                for key_node, value_node in node.value:
                    if type(key_node) is not ScalarNode:
                        raise Defer("complex key")
                    key = self.construct_object(key_node)
                    if key in mapping:
                        raise Defer("duplicate key")
                    mapping[key] = self.construct_object(value_node)
                return mapping
            raise Defer(str(node.tag))

    return Loader


def fast_load(text: str) -> Any:
    """The document ruamel's YAML 1.2 safe loader would return, or raise `Defer`."""
    if _UNSAFE.search(text):
        raise Defer("node properties, directives or YAML 1.1 line breaks")
    if _INDENTED_BLANK_FIRST.search(text):
        raise Defer("block scalar led by an indented blank line")
    if _EXPLICIT_KEY.search(text):
        raise Defer("explicit key indicator")
    loader_class = _loader_class()
    if loader_class is None:
        raise Defer("PyYAML without libyaml")
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        return None if node is None else loader.construct_object(node)
    except Defer:
        raise
    except Exception as exc:  # libyaml's verdict is not ruamel's: let ruamel speak
        raise Defer(str(exc)) from None
    finally:
        loader.dispose()
