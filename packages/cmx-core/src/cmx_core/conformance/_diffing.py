"""Short, human-readable summaries of why an observed value differs from the fixture."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

_MAX_ITEMS = 5


def diff_bytes(expected: bytes, actual: bytes) -> str | None:
    if expected == actual:
        return None
    offset = next(
        (i for i, (a, b) in enumerate(zip(expected, actual, strict=False)) if a != b),
        min(len(expected), len(actual)),
    )
    window = slice(max(0, offset - 10), offset + 20)
    return (
        f"bytes differ at offset {offset} (expected {len(expected)} bytes, got {len(actual)}): "
        f"expected {expected[window]!r}, got {actual[window]!r}"
    )


def diff_text(expected: str, actual: str) -> str | None:
    return diff_bytes(expected.encode("utf-8"), actual.encode("utf-8"))


def _json_diffs(expected: Any, actual: Any, where: str) -> Iterator[str]:
    if type(expected) is not type(actual):
        yield f"{where or '/'}: expected {expected!r}, got {actual!r}"
    elif isinstance(expected, dict):
        for key in sorted(set(expected) | set(actual)):
            path = f"{where}/{key}"
            if key not in actual:
                yield f"{path}: missing"
            elif key not in expected:
                yield f"{path}: unexpected {actual[key]!r}"
            else:
                yield from _json_diffs(expected[key], actual[key], path)
    elif isinstance(expected, list):
        if len(expected) != len(actual):
            yield f"{where or '/'}: expected {len(expected)} items, got {len(actual)}: {actual!r}"
        else:
            for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
                yield from _json_diffs(e, a, f"{where}/{i}")
    elif expected != actual:
        yield f"{where or '/'}: expected {expected!r}, got {actual!r}"


def diff_json(expected: Any, actual: Any, label: str = "") -> str | None:
    """Parsed-value comparison; `type` checks keep `1` and `true` apart."""
    found = list(_json_diffs(expected, actual, ""))
    if not found:
        return None
    shown = "; ".join(found[:_MAX_ITEMS])
    more = f" (+{len(found) - _MAX_ITEMS} more)" if len(found) > _MAX_ITEMS else ""
    return f"{label}{shown}{more}"


def diff_tree(expected: Mapping[str, bytes], actual: Mapping[str, bytes], label: str) -> str | None:
    """Exact file set and contents."""
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    changed = sorted(k for k in set(expected) & set(actual) if expected[k] != actual[k])
    if not (missing or extra or changed):
        return None
    parts = []
    if missing:
        parts.append(f"missing {missing[:_MAX_ITEMS]}")
    if extra:
        parts.append(f"unexpected {extra[:_MAX_ITEMS]}")
    for key in changed[:_MAX_ITEMS]:
        parts.append(f"{key}: {diff_bytes(expected[key], actual[key])}")
    return f"{label}: " + "; ".join(parts)
