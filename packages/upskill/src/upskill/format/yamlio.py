"""Safe YAML 1.2 loading with file and line in every error.

YAML 1.2 keeps `no`, `yes`, `on` and `off` as strings, so a skill named `no`
or a description `yes` round-trips. Duplicate keys are errors, and so is an
anchor defined twice (`_single_anchor_composer`). ruamel is the
reference parser; a libyaml fast path answers first when it provably agrees.

YAML from a registry is data someone else wrote, so what a load returns is
bounded (docs/upskill/security.md): plain dicts, lists and scalars (str, int,
float, bool, null, timestamps; `!!binary`, `!!set` and other types are
refused, and so is a value its constructor rejects, `2024-02-30`), at most
`MAX_DEPTH` levels deep and `MAX_VALUES` values once aliases are expanded.
An alias bomb ("billion laughs"), a list that contains itself (`&a [*a]`) or
5,000 nested brackets is one error naming the file, not a hang, unbounded
memory or a traceback. Aliases are expanded into copies, so no caller ever
sees a shared or cyclic structure.
"""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from upskill.errors import FormatError

if TYPE_CHECKING:
    from ruamel.yaml import YAML
    from ruamel.yaml.composer import Composer

_TOP_KEY = re.compile(r"^([^\s#\-][^:]*?)\s*:(?:\s|$)")
MAX_DEPTH = 64
MAX_VALUES = 100_000
# What a load may return besides dicts and lists (ruamel's timestamps are dates).
_SCALARS = (str, int, float, bool, type(None), datetime.date)


@functools.cache
def _loader() -> YAML:
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.allow_duplicate_keys = False
    yaml.Composer = _single_anchor_composer()
    return yaml


def _single_anchor_composer() -> type[Composer]:
    """ruamel's composer, refusing an anchor defined twice in one document.

    YAML 1.2 lets a later `&name` replace an earlier one, so `*name` means whichever
    came last. ruamel accepts that with a `ReusedAnchorWarning` that Python prints to
    the terminal as a raw multi-line warning; PyYAML and StrictYAML (the Agent Skills
    validator) refuse it. A reused anchor is almost always a copy-paste slip that
    changes what an alias means, so, like a duplicate key, it is one error at the second
    occurrence's line. Checked before ruamel's own check, which then never warns."""
    from ruamel.yaml.composer import Composer, ComposerError
    from ruamel.yaml.events import AliasEvent

    class SingleAnchorComposer(Composer):
        def compose_node(self, parent: Any, index: Any) -> Any:
            event = self.parser.peek_event()
            anchor = getattr(event, "anchor", None)
            if anchor in self.anchors and not isinstance(event, AliasEvent):
                raise ComposerError(
                    None, None, f"anchor &{anchor} is defined twice", event.start_mark
                )
            return super().compose_node(parent, index)

    return SingleAnchorComposer


def _load_or_reset(text: str) -> Any:
    try:
        return _loader().load(text)
    except Exception:
        # A failed load can leave constructor state behind that corrupts the
        # next error message (seen with duplicate keys): start afresh.
        _loader.cache_clear()
        raise


def load_yaml(text: str, path: Path, *, first_line: int = 1) -> Any:
    """Parse one YAML document; errors carry `path` and the absolute line.

    libyaml answers first (format/yaml_fast.py); ruamel parses whatever that
    path defers, so values and error messages are ruamel's in every case.
    """
    from upskill.format.yaml_fast import Defer, fast_load

    def parse() -> Any:
        try:
            return fast_load(text)
        except Defer:
            return _ruamel(text, path, first_line)

    return _checked(parse, path, first_line)


def reference_load(text: str, path: Path, *, first_line: int = 1) -> Any:
    """ruamel alone: the reference the fast path is tested against."""
    return _checked(lambda: _ruamel(text, path, first_line), path, first_line)


def _checked(parse: Callable[[], Any], path: Path, first_line: int) -> Any:
    """`parse()`, with a value its constructor rejects or nesting too deep reported as
    an error naming the file, and the result `bounded`."""
    try:
        value = parse()
    except RecursionError:
        raise FormatError(
            f"invalid YAML: nested deeper than {MAX_DEPTH} levels", path=path, line=first_line
        ) from None
    except (ValueError, TypeError, OverflowError) as exc:
        # a value the constructors reject: `2024-02-30`, `!!int abc`, a 5,000-digit number
        raise FormatError(f"invalid YAML value: {exc}", path=path, line=first_line) from None
    return bounded(value, path, first_line)


def _ruamel(text: str, path: Path, first_line: int) -> Any:
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    try:
        return _load_or_reset(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = first_line + mark.line if mark is not None else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise FormatError(f"invalid YAML: {problem}", path=path, line=line) from None
    except YAMLError as exc:
        raise FormatError(f"invalid YAML: {exc}", path=path, line=first_line) from None


def bounded(value: Any, path: Path, line: int) -> Any:
    """`value` rebuilt from plain containers, within `MAX_DEPTH` and `MAX_VALUES`."""
    budget = [MAX_VALUES]

    def copy(node: Any, depth: int) -> Any:
        budget[0] -= 1
        if budget[0] < 0:
            raise FormatError(
                f"invalid YAML: more than {MAX_VALUES} values once aliases are expanded",
                path=path,
                line=line,
            )
        if isinstance(node, dict | list) and depth >= MAX_DEPTH:
            raise FormatError(
                f"invalid YAML: nested deeper than {MAX_DEPTH} levels (or refers to itself)",
                path=path,
                line=line,
            )
        if isinstance(node, dict):
            return {key: copy(item, depth + 1) for key, item in node.items()}
        if isinstance(node, list):
            return [copy(item, depth + 1) for item in node]
        if not isinstance(node, _SCALARS):
            kind = "binary" if isinstance(node, bytes) else type(node).__name__
            raise FormatError(
                f"invalid YAML value: {kind} values are not supported", path=path, line=line
            )
        return node

    return copy(value, 0)


def top_level_key_lines(text: str, *, first_line: int = 1) -> dict[str, int]:
    """Map each unindented `key:` to its absolute line, for error locations."""
    lines: dict[str, int] = {}
    for offset, raw in enumerate(text.split("\n")):
        match = _TOP_KEY.match(raw)
        if match:
            key = match.group(1).strip().strip("'\"")
            lines.setdefault(key, first_line + offset)
    return lines


# What StrictYAML (the parser of the Agent Skills reference validator) refuses, by token.
_STRICT_REFUSED = {
    "FlowMappingStartToken": "a flow mapping ({...})",
    "FlowSequenceStartToken": "a flow sequence ([...])",
    "AnchorToken": "an anchor (&name)",
    "AliasToken": "an alias (*name)",
    "TagToken": "an explicit tag (!!type)",
}


def strict_yaml_refusals(text: str) -> list[tuple[str, int]]:
    """Each construct of `text` StrictYAML refuses, with its 0-based line: flow
    collections, anchors, aliases and tags. `agentskills validate` reads frontmatter
    with StrictYAML, so a skill using any of them fails it although YAML 1.2 (and
    upskill) read it. Unscannable text gives nothing here: the loader reports it."""
    from ruamel.yaml.error import YAMLError

    found: list[tuple[str, int]] = []
    try:
        for token in _loader().scan(text):
            what = _STRICT_REFUSED.get(type(token).__name__)
            if what is not None:
                found.append((what, token.start_mark.line))
    except YAMLError:
        _loader.cache_clear()
    return found
