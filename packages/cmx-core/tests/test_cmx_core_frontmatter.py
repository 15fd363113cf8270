"""§6 reconciliation: exact edits, and idempotence as a property."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cmx_core._bundle import SkillFile
from cmx_core._frontmatter import (
    reconcile_document_version,
    reconcile_skill_files,
    reconcile_skill_md_bytes,
    split_frontmatter,
)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "---\nname: foo\ndescription: bar\n---\n# Body\n",
            '---\nname: foo\ndescription: bar\nmetadata:\n  version: "3.1.0"\n---\n# Body\n',
        ),
        (
            "---\nversion: 1\nmetadata:\n\tauthor: t\n---\n",
            '---\nmetadata:\n\tversion: "3.1.0"\n\tauthor: t\n---\n',
        ),
        (
            "---\nmetadata:\n  # placeholder\n  version: '0.0.0'\n---\n",
            '---\nmetadata:\n  # placeholder\n  version: "3.1.0"\n---\n',
        ),
        (
            "---\nversioning: semver\n---",
            '---\nversioning: semver\nmetadata:\n  version: "3.1.0"\n---',
        ),
        ("--- \nname: x\n---\n", "--- \nname: x\n---\n"),
        ("---\nname: x\n", "---\nname: x\n"),
        ("", ""),
    ],
)
def test_reconcile_exact(source: str, expected: str) -> None:
    assert reconcile_document_version(source, "3.1.0") == expected


def test_only_root_skill_md_changes_and_non_utf8_passes_through() -> None:
    files = (
        SkillFile.text("SKILL.md", "---\nname: foo\n---\n"),
        SkillFile.text("refs/SKILL.md", "---\nname: foo\n---\n"),
        SkillFile.binary("data.bin", b"\xff---\n"),
    )
    out = reconcile_skill_files(files, "2.0.0")
    assert out[0].data == b'---\nname: foo\nmetadata:\n  version: "2.0.0"\n---\n'
    assert out[1:] == files[1:]
    assert reconcile_skill_md_bytes(b"---\n\xff\n---\n", "1.0.0") == b"---\n\xff\n---\n"


def test_spans_rebuild_the_input() -> None:
    text = "---\r\na: 1\r\n---\r\nbody\r\n"
    spans = split_frontmatter(text)
    assert spans is not None
    assert spans.opener + spans.inner + spans.closing_and_body == text
    assert spans.body == "body\r\n"


_line = st.one_of(
    st.sampled_from(
        [
            "name: x",
            "version: 9.9.9",
            "metadata:",
            '  version: "0.1.0"',
            "    author: me",
            "  # comment",
            "",
            "description: >",
            "  folded line",
            "versioning: semver",
            "---",
            "\tversion: 1",
        ]
    ),
    st.text(alphabet=st.sampled_from("ab: -#\t\"'"), max_size=12),
)
_document = st.builds(
    lambda opener, lines, ending, body: opener + ending.join(lines) + ending + body,
    st.sampled_from(["---\n", "---\r\n", "", "--\n"]),
    st.lists(_line, max_size=10),
    st.sampled_from(["\n", "\r\n"]),
    st.text(max_size=20),
)
_version = st.from_regex(r"[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}(-[a-z0-9.]{1,8})?", fullmatch=True)


@given(_document, _version)
def test_reconciliation_is_idempotent(document: str, version: str) -> None:
    once = reconcile_document_version(document, version)
    assert reconcile_document_version(once, version) == once


@given(_document, _version)
def test_body_after_the_closing_fence_is_untouched(document: str, version: str) -> None:
    spans = split_frontmatter(document)
    out = reconcile_document_version(document, version)
    if spans is None:
        assert out == document
    else:
        assert out.endswith(spans.closing_and_body)
        assert out.startswith(spans.opener)
