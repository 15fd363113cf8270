"""Generated categories over pure text functions: version order, SKILL.md
reconciliation, trimming and JSON string escapes."""

from __future__ import annotations

from typing import Any

from cmx_core._frontmatter import reconcile_skill_md_bytes
from cmx_core._guard import compare_versions
from cmx_core._jsonfile import render_json
from cmx_core._whitespace import WHITE_SPACE, trim, trim_end, trim_start
from cmx_core.conformance._diffing import diff_bytes, diff_json
from cmx_core.conformance._manifest import Case, Fields, FixtureError, typed

VERSION_ORDER = Fields(input=frozenset({"versions"}), expected=frozenset({"order"}))
RECONCILE = Fields(
    input=frozenset({"version", "skill_md"}), expected=frozenset({"skill_md", "idempotent"})
)
WHITESPACE = Fields(
    input=frozenset({"text"}), expected=frozenset({"trim", "trim_start", "trim_end"})
)
WHITE_SPACE_SET = Fields(input=frozenset({"scalar_values"}), expected=frozenset({"ranges"}))
JSON_ESCAPE = Fields(input=frozenset({"code_points"}), expected=frozenset({"escapes"}))

_SYMBOL = {-1: "<", 0: "=", 1: ">"}


def blob(value: object) -> bytes:
    """A fixture byte string: a JSON string (UTF-8 text) or `{"hex": "..."}`."""
    if type(value) is str:
        return value.encode("utf-8")
    if type(value) is dict and set(value) == {"hex"} and type(value["hex"]) is str:
        return bytes.fromhex(value["hex"])
    raise FixtureError(f"expected text or {{'hex': ...}}, got {value!r}")


def run_version_order(case: Case) -> str | None:
    versions = typed(case, case.input, "versions", list)
    if any(type(v) is not str for v in versions):
        raise FixtureError("versions must be strings")
    rows = [
        "".join(_SYMBOL[int(compare_versions(installed, bundled))] for bundled in versions)
        for installed in versions
    ]
    expected = typed(case, case.expected, "order", list)
    wrong = [
        f"{versions[i]!r} vs {versions[j]!r}: expected {row[j]}, got {rows[i][j]}"
        for i, row in enumerate(expected)
        for j in range(len(row))
        if row[j] != rows[i][j]
    ]
    return "; ".join(wrong[:5]) + (f" (+{len(wrong) - 5} more)" if len(wrong) > 5 else "") or None


def run_reconcile(case: Case) -> str | None:
    version = typed(case, case.input, "version", str)
    once = reconcile_skill_md_bytes(blob(case.input["skill_md"]), version)
    problem = diff_bytes(blob(case.expected["skill_md"]), once)
    idempotent = reconcile_skill_md_bytes(once, version) == once
    if problem is None and idempotent is not typed(case, case.expected, "idempotent", bool):
        problem = f"idempotent: expected {case.expected['idempotent']}, got {idempotent}"
    return problem


def run_whitespace(case: Case) -> str | None:
    text = typed(case, case.input, "text", str)
    actual = {"trim": trim(text), "trim_start": trim_start(text), "trim_end": trim_end(text)}
    return diff_json(dict(case.expected), actual)


def run_white_space_set(case: Case) -> str | None:
    if case.input["scalar_values"] != "U+0000..U+10FFFF":
        raise FixtureError("only the full range U+0000..U+10FFFF is defined")
    ranges: list[Any] = typed(case, case.expected, "ranges", list)
    expected = {chr(cp) for first, last in ranges for cp in range(first, last + 1)}
    actual = set(WHITE_SPACE)
    if expected == actual:
        return None
    missing, extra = sorted(map(ord, expected - actual)), sorted(map(ord, actual - expected))
    return f"missing {missing}, extra {extra}"


def run_json_escape(case: Case) -> str | None:
    points = typed(case, case.input, "code_points", list)
    expected = typed(case, case.expected, "escapes", dict)
    actual = {str(cp): render_json(chr(cp)) for cp in points}
    return diff_json(expected, actual)
