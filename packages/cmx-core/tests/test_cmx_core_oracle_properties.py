"""Property tests for the pure functions, judged by answers frozen from the Rust reference.

CI cannot run the reference, so Hypothesis draws from what it answered
(conformance/cmx-core-extra) and from transformations whose answer follows from
those answers: version pairs from the 42 by 42 order matrix, strings over the exact
White_Space set, lockfile strings escaped character by character as serde_json
escaped each one, and SKILL.md cases with arbitrary text appended to the body.
"""

from __future__ import annotations

import json
import string
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from cmx_core._frontmatter import reconcile_skill_md_bytes
from cmx_core._guard import Ordering, compare_versions
from cmx_core._jsonfile import render_json
from cmx_core._lockfile import LockEntry, LockFile, LockSource
from cmx_core._platforms import ArtifactKind
from cmx_core._whitespace import trim, trim_end, trim_start

EXTRA = Path(__file__).resolve().parents[3] / "conformance" / "cmx-core-extra"


def _cases(category: str) -> list[dict[str, Any]]:
    manifest = json.loads((EXTRA / category / "manifest.json").read_text(encoding="utf-8"))
    cases: list[dict[str, Any]] = manifest["cases"]
    return cases


def _blob(value: Any) -> bytes:
    return value.encode("utf-8") if isinstance(value, str) else bytes.fromhex(value["hex"])


MATRIX = _cases("version-order")[0]
VERSIONS: list[str] = MATRIX["input"]["versions"]
ORDER: list[str] = MATRIX["expected"]["order"]
SYMBOL = {"<": Ordering.LESS, "=": Ordering.EQUAL, ">": Ordering.GREATER}

RANGES = _cases("white-space-set")[0]["expected"]["ranges"]
WHITE = "".join(chr(cp) for first, last in RANGES for cp in range(first, last + 1))
ESCAPES: dict[str, str] = _cases("json-escape")[0]["expected"]["escapes"]
ESCAPED_CHARS = "".join(chr(int(cp)) for cp in ESCAPES)
RECONCILE = [c for c in _cases("reconcile") if isinstance(c["expected"]["skill_md"], str)]


@given(st.integers(0, len(VERSIONS) - 1), st.integers(0, len(VERSIONS) - 1))
def test_version_order_matches_the_reference_matrix(i: int, j: int) -> None:
    assert compare_versions(VERSIONS[i], VERSIONS[j]) is SYMBOL[ORDER[i][j]]


@given(st.integers(0, len(VERSIONS) - 1), st.integers(0, len(VERSIONS) - 1))
def test_reference_order_is_antisymmetric_where_both_parse(i: int, j: int) -> None:
    """A sanity check on the frozen answers themselves: `<` one way is `>` the other,
    except for the non-semver fallback, which is never "newer" in either direction."""
    forward, backward = ORDER[i][j], ORDER[j][i]
    if forward == ">":
        assert backward == "<"
    if forward == "=":
        assert backward == "="


_text = st.text(alphabet=st.sampled_from(WHITE + "\x1c\x1d\x1e\x1f\u200b\ufeffab-"), max_size=20)


@given(_text)
def test_trim_removes_exactly_the_reference_white_space(text: str) -> None:
    start = len(text) - len(text.lstrip(WHITE))
    end = len(text.rstrip(WHITE))
    assert trim_start(text) == text[start:]
    assert trim_end(text) == text[:end]
    assert trim(text) == text[start:end] if start < end else trim(text) == ""


@given(_text)
def test_information_separators_are_never_trimmed(text: str) -> None:
    wrapped = f"\x1c{text}\x1f"
    assert trim(wrapped) == wrapped


def _lock_text(value: str) -> str:
    source = LockSource(repo=value, path=value)
    entry = LockEntry(ArtifactKind.SKILL, value, value, source, value, value)
    return render_json(LockFile({value: entry}).to_json())


TEMPLATE = _lock_text("@")


@given(st.text(alphabet=st.sampled_from(ESCAPED_CHARS), max_size=30))
def test_lockfile_strings_are_escaped_as_serde_json_escapes_each_character(value: str) -> None:
    escaped = "".join(ESCAPES[str(ord(ch))][1:-1] for ch in value)
    assert _lock_text(value) == TEMPLATE.replace('"@"', f'"{escaped}"')


@given(st.sampled_from(RECONCILE), st.text(alphabet=string.printable, max_size=40))
def test_reconcile_changes_only_the_frontmatter(case: dict[str, Any], tail: str) -> None:
    """Text after a closed frontmatter block is never touched, so the reference's
    answer for `doc + tail` is its answer for `doc`, plus `tail`."""
    source = _blob(case["input"]["skill_md"])
    expected = _blob(case["expected"]["skill_md"])
    version = case["input"]["version"]
    if expected == source or not source.endswith(b"---\n"):
        return  # unchanged (no closed fence) or a body that a tail could reopen
    got = reconcile_skill_md_bytes(source + tail.encode(), version)
    assert got == expected + tail.encode()
