"""§7 version comparison: SemVer precedence, pre-releases, and the string fallback."""

from __future__ import annotations

import functools
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cmx_core import _semver as semver
from cmx_core._guard import Ordering, compare_versions

# The precedence chain from the SemVer 2.0.0 specification, §11.
SPEC_CHAIN = [
    "1.0.0-alpha",
    "1.0.0-alpha.1",
    "1.0.0-alpha.beta",
    "1.0.0-beta",
    "1.0.0-beta.2",
    "1.0.0-beta.11",
    "1.0.0-rc.1",
    "1.0.0",
    "1.9.0",
    "1.10.0",
    "2.0.0",
]


def test_spec_chain_is_strictly_increasing() -> None:
    for lower, higher in itertools.pairwise(SPEC_CHAIN):
        assert compare_versions(lower, higher) is Ordering.LESS
        assert compare_versions(higher, lower) is Ordering.GREATER


@pytest.mark.parametrize(
    "text", ["1.0", "v1.0.0", "01.0.0", "1.0.0-01", "1.0.0-", " 1.0.0", "1.0.0+"]
)
def test_invalid_semver_is_rejected(text: str) -> None:
    assert semver.parse(text) is None


def test_fallback_is_equality_or_less_never_greater() -> None:
    assert compare_versions(None, "1.0.0") is Ordering.LESS
    assert compare_versions("dev", "dev") is Ordering.EQUAL
    assert compare_versions("99", "1.0.0") is Ordering.LESS
    assert compare_versions("1.0.0", "dev") is Ordering.LESS


_ident = st.one_of(
    st.integers(min_value=0, max_value=30).map(str),
    st.text(alphabet=st.sampled_from("abz-"), min_size=1, max_size=4),
)
_versions = st.builds(
    lambda core, pre: f"{core[0]}.{core[1]}.{core[2]}" + ("-" + ".".join(pre) if pre else ""),
    st.tuples(*[st.integers(min_value=0, max_value=12)] * 3),
    st.lists(_ident, max_size=3),
)


def _cmp(a: str, b: str) -> int:
    va, vb = semver.parse(a), semver.parse(b)
    assert va is not None and vb is not None
    return semver.compare(va, vb)


@given(_versions, _versions)
def test_comparison_is_antisymmetric(a: str, b: str) -> None:
    assert _cmp(a, b) == -_cmp(b, a)
    assert (_cmp(a, b) == 0) == (a == b)


@given(st.lists(_versions, min_size=3, max_size=8))
def test_sorting_is_consistent_and_transitive(items: list[str]) -> None:
    ordered = sorted(items, key=functools.cmp_to_key(_cmp))
    for i, low in enumerate(ordered):
        for high in ordered[i:]:
            assert _cmp(low, high) <= 0


@given(_versions)
def test_release_outranks_its_prereleases(version: str) -> None:
    core = version.split("-", 1)[0]
    if core != version:
        assert _cmp(version, core) == -1
