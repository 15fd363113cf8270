"""The canonical frontmatter key order of format spec v0.6 §3.8.

Known keys are emitted in the listed order; every other key follows them in
its original relative order. The spec's §3.8 text wins over the upstream
code, which sorts unknown keys alphabetically and leaves `tools` and
`preload-skills` out of the skill order (see docs/upskill/authoring.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from upskill.clients import PASSTHROUGH_BLOCKS
from upskill.format.bundles import BUNDLE_KEYS

_ITEM_HEAD = ("schema", "name", "description", "audience", "license")
_ITEM_TAIL = ("metadata", "requires", "ignore", *PASSTHROUGH_BLOCKS)

CANONICAL_ORDER: dict[str, tuple[str, ...]] = {
    "rule": (*_ITEM_HEAD, "scope", *_ITEM_TAIL),
    "skill": (*_ITEM_HEAD, "tools", "preload-skills", *_ITEM_TAIL),
    "agent": (*_ITEM_HEAD, "mode", "model", "tools", "preload-skills", *_ITEM_TAIL),
    "bundle": BUNDLE_KEYS,
}


def canonical_key_order(kind: str, keys: Sequence[str]) -> list[str]:
    """Return `keys` sorted canonically for `kind`; unknown keys keep their relative order."""
    known = CANONICAL_ORDER[kind]
    rank = {key: index for index, key in enumerate(known)}
    unknown_rank = len(known)
    positions = sorted(range(len(keys)), key=lambda i: (rank.get(keys[i], unknown_rank), i))
    return [keys[i] for i in positions]
