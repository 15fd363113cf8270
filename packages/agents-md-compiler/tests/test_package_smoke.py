"""The distribution imports and reports its version."""

import agents_md_compiler


def test_version_is_semver_like() -> None:
    parts = agents_md_compiler.__version__.split(".")
    assert len(parts) == 3
    assert all(part.isdigit() for part in parts)
