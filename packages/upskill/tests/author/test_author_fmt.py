"""`upskill fmt`: golden canonicalisation, no-touch on canonical files, --check, bad input."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

GOLDEN_FMT = Path(__file__).resolve().parent / "golden" / "fmt"
CASES = sorted(p.name for p in GOLDEN_FMT.iterdir() if p.is_dir())


def _only_file(directory: Path) -> Path:
    (path,) = list(directory.iterdir())
    return path


def _copy_case(case: str, work: Path) -> tuple[Path, bytes]:
    source = _only_file(GOLDEN_FMT / case / "input")
    expected = (GOLDEN_FMT / case / "expected" / source.name).read_bytes()
    target = work / case / source.name
    target.parent.mkdir(parents=True)
    shutil.copyfile(source, target)
    return target, expected


@pytest.mark.parametrize("case", CASES)
def test_fmt_rewrites_to_golden_and_is_idempotent(case, work, upskill):
    target, expected = _copy_case(case, work)
    original = target.read_bytes()
    result = upskill("fmt", str(target.relative_to(work)))
    assert result.returncode == 0, result.stderr
    assert target.read_bytes() == expected
    shown = target.relative_to(work).as_posix()
    if original != expected:
        assert f"formatted {shown}\n" in result.stdout
    assert result.stdout.endswith(f"1 file(s) checked, {int(original != expected)} reformatted\n")
    again = upskill("fmt", "--check", str(target.relative_to(work)))
    assert again.returncode == 0
    assert again.stdout == "1 file(s) checked, 0 would be reformatted\n"


def test_golden_outputs_are_fixed_points_in_process():
    from upskill.author.canonical import canonical_text
    from upskill.author.targets import kind_of

    for case in CASES:
        expected = _only_file(GOLDEN_FMT / case / "expected")
        kind = kind_of(expected)
        assert kind is not None
        text = expected.read_text(encoding="utf-8")
        assert canonical_text(text, kind, expected) == text, case


def test_canonical_file_is_left_untouched(work, upskill):
    target, expected = _copy_case("canonical", work)
    assert target.read_bytes() == expected
    old = 1_000_000_000_000_000_000
    import os

    os.utime(target, ns=(old, old))
    result = upskill("fmt")
    assert result.returncode == 0
    assert target.stat().st_mtime_ns == old
    assert result.stdout == "1 file(s) checked, 0 reformatted\n"


def test_crlf_and_bom_input_become_lf_without_bom(work, upskill, writer):
    source = _only_file(GOLDEN_FMT / "preamble" / "input")
    expected = (GOLDEN_FMT / "preamble" / "expected" / source.name).read_bytes()
    crlf = b"\xef\xbb\xbf" + source.read_bytes().replace(b"\n", b"\r\n")
    target = writer(work / "preamble-rule" / "RULE.md", crlf)
    result = upskill("fmt")
    assert result.returncode == 0, result.stderr
    assert target.read_bytes() == expected


def test_canonical_content_with_crlf_is_still_rewritten(work, upskill):
    target, expected = _copy_case("canonical", work)
    target.write_bytes(expected.replace(b"\n", b"\r\n"))
    check = upskill("fmt", "--check")
    assert check.returncode == 1
    assert (
        check.stdout
        == "would reformat canonical/SKILL.md\n1 file(s) checked, 1 would be reformatted\n"
    )
    assert upskill("fmt").returncode == 0
    assert target.read_bytes() == expected


def test_check_lists_changes_writes_nothing_and_exits_1(work, upskill, snap):
    for case in ("comments", "bundle", "canonical"):
        _copy_case(case, work)
    before = snap(work)
    result = upskill("fmt", "--check")
    assert result.returncode == 1
    assert result.stdout == (
        "would reformat bundle/team.bundle.yaml\n"
        "would reformat comments/SKILL.md\n"
        "3 file(s) checked, 2 would be reformatted\n"
    )
    assert snap(work) == before


def test_fmt_keeps_file_mode(work, upskill):
    target, expected = _copy_case("comments", work)
    target.chmod(0o640)
    assert upskill("fmt").returncode == 0
    assert target.read_bytes() == expected
    assert target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in target.parent.iterdir()] == ["SKILL.md"]  # no temp files left


def test_malformed_yaml_is_refused_and_file_unchanged(work, upskill, writer):
    bad = "---\nname: broken\ndescription: [unclosed\nschema: 1\n---\n\n## Body\n"
    target = writer(work / "broken" / "SKILL.md", bad)
    good, expected = _copy_case("comments", work)
    result = upskill("fmt")
    assert result.returncode == 1
    assert target.read_text() == bad
    assert good.read_bytes() == expected  # other files are still formatted
    assert result.stderr.startswith("upskill: error: broken/SKILL.md:")
    assert "invalid YAML" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_missing_frontmatter_is_refused(work, upskill, writer):
    target = writer(work / "nofm" / "RULE.md", "## Just a body\n")
    result = upskill("fmt", "--check")
    assert result.returncode == 1
    assert result.stderr == (
        "upskill: error: nofm/RULE.md:1: missing YAML frontmatter "
        "(the file must start with '---')\n"
    )
    assert target.read_text() == "## Just a body\n"


def test_flow_mapping_frontmatter_out_of_order_is_refused(work, upskill, writer):
    text = "---\n{description: d, name: flow, schema: 1}\n---\n\n## Body\n"
    target = writer(work / "flow" / "RULE.md", text)
    result = upskill("fmt")
    assert result.returncode == 1
    assert "cannot reorder frontmatter safely" in result.stderr
    assert target.read_text() == text


def test_fmt_refuses_consumer_project(work, upskill, snap, writer):
    _copy_case("comments", work)
    writer(work / ".upskill-lock.json", '{"schema": 1}\n')
    before = snap(work)
    result = upskill("fmt")
    assert result.returncode == 2
    assert "consumer project" in result.stderr
    assert snap(work) == before


def test_fmt_missing_path_is_usage_error(upskill):
    result = upskill("fmt", "nope")
    assert result.returncode == 2
    assert result.stderr == "upskill: error: nope: no such file or directory\n"


def test_undiscoverable_bundle_is_skipped_but_explicit_one_fails(work, upskill, writer):
    writer(work / "notes.bundle.yaml", "name: notes\ndescription: d\ntitle: not a bundle\n")
    assert upskill("fmt", "--check").stdout == "0 file(s) checked, 0 would be reformatted\n"
    explicit = upskill("fmt", "--check", "notes.bundle.yaml")
    assert explicit.returncode == 0  # fmt only orders keys; lint reports the missing schema
    lint = upskill("lint", "notes.bundle.yaml")
    assert lint.returncode == 1
    assert "[frontmatter] missing required integer field 'schema'" in lint.stdout


def test_override_bodies_are_formatted_and_frontmatter_refused(work, upskill, writer):
    writer(work / "o" / "RULE.md", "---\nschema: 1\nname: o\ndescription: d\n---\n\n## O\n")
    body = writer(work / "o" / "RULE.copilot.md", "## Copilot\n* one\n* two\n")
    bad = writer(work / "o" / "RULE.claude.md", "---\nname: o\n---\n\n## Claude\n")
    result = upskill("fmt")
    assert result.returncode == 1
    assert body.read_text() == "## Copilot\n\n- one\n- two\n"
    assert bad.read_text() == "---\nname: o\n---\n\n## Claude\n"
    assert result.stderr == (
        "upskill: error: o/RULE.claude.md:1: override files contain body only; "
        "remove the '---' block\n"
    )
