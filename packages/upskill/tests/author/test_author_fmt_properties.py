"""Property tests: frontmatter reordering is idempotent, data-preserving and lossless.

Frontmatter is generated from permutations of known and unknown keys with
several value layouts (scalars, block and flow sequences, nested mappings,
block scalars), comments directly above keys, floating comments after blank
lines, a pinned preamble and a postamble.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from upskill.author.canonical import reorder_yaml
from upskill.author.keyorder import CANONICAL_ORDER
from upskill.format.yamlio import load_yaml

PATH = Path("prop/SKILL.md")
KIND = "agent"
KEYS = [*CANONICAL_ORDER[KIND], "zeta", "alpha", "x-custom", "allowed-tools"]

VALUES = [
    lambda k: [f"{k}: plain value"],
    lambda k: [f'{k}: "quoted: value"'],
    lambda k: [f"{k}:", "  - one", "  - two"],
    lambda k: [f"{k}:", "- unindented", "- sequence"],
    lambda k: [f"{k}: [a, b]"],
    lambda k: [f"{k}:", "  nested: 1", "  # indented comment", "  other: x"],
    lambda k: [f"{k}: |", "  line one", "", "  line three"],
    lambda k: [f"{k}: 42 # trailing comment"],
]

comment = st.from_regex(r"# [a-z ]{0,12}", fullmatch=True)


@st.composite
def frontmatter(draw: st.DrawFn) -> str:
    keys = draw(st.lists(st.sampled_from(KEYS), min_size=1, max_size=10, unique=True))
    lines: list[str] = []
    if draw(st.booleans()):
        lines += [*draw(st.lists(comment, min_size=1, max_size=2)), ""]
    for key in keys:
        if draw(st.booleans()):
            lines += draw(st.lists(comment, min_size=1, max_size=2))
        lines += draw(st.sampled_from(VALUES))(key)
        gap = draw(st.sampled_from(["none", "blank", "floating"]))
        if gap == "blank":
            lines.append("")
        elif gap == "floating":
            lines += ["", draw(comment), ""]
    if draw(st.booleans()):
        lines += [*draw(st.sampled_from([[], [""]])), draw(comment)]
    return "\n".join(lines) + "\n"


@settings(max_examples=150, deadline=None)
@given(frontmatter())
def test_reorder_is_idempotent_and_preserves_data(text: str) -> None:
    once = reorder_yaml(text, KIND, PATH)
    assert reorder_yaml(once, KIND, PATH) == once
    assert load_yaml(once, PATH) == load_yaml(text, PATH)


@settings(max_examples=150, deadline=None)
@given(frontmatter())
def test_reorder_keeps_every_line_and_orders_keys(text: str) -> None:
    once = reorder_yaml(text, KIND, PATH)
    non_blank = Counter(line for line in text.split("\n") if line.strip())
    assert Counter(line for line in once.split("\n") if line.strip()) == non_blank
    data = load_yaml(once, PATH)
    order = list(data)
    known = [k for k in order if k in CANONICAL_ORDER[KIND]]
    assert known == sorted(known, key=CANONICAL_ORDER[KIND].index)
    unknown = [k for k in order if k not in CANONICAL_ORDER[KIND]]
    original = [k for k in load_yaml(text, PATH) if k not in CANONICAL_ORDER[KIND]]
    assert unknown == original
    assert order == known + unknown


@settings(max_examples=100, deadline=None)
@given(frontmatter())
def test_comment_directly_above_key_travels_with_it(text: str) -> None:
    lines = text.split("\n")
    once = reorder_yaml(text, KIND, PATH).split("\n")
    for index, line in enumerate(lines):
        if index and line.split(":")[0] in KEYS and not line.startswith(("#", " ", "-")):
            above = lines[index - 1]
            if above.startswith("#"):
                where = once.index(line)
                assert once[where - 1] == above


BODY_FRAGMENTS = [
    "## Heading",
    "### Sub heading",
    "Some *emphasis* and __strong__ text.",
    "* star bullet",
    "- dash bullet",
    "1. first",
    "```python\nprint('x')\n```",
    "<!-- @client:claude -->",
    "<!-- @endclient -->",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    "> quoted",
    "See [ref](references/x.md).",
]


@st.composite
def entrypoint(draw: st.DrawFn) -> str:
    yaml_text = draw(frontmatter())
    pieces = draw(st.lists(st.sampled_from(BODY_FRAGMENTS), max_size=8))
    separators = draw(st.lists(st.sampled_from(["\n", "\n\n", "\n\n\n"]), min_size=len(pieces)))
    body = "".join(p + s for p, s in zip(pieces, separators, strict=False))
    seam = draw(st.sampled_from(["", "\n", "\n\n\n"]))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return f"---\n{yaml_text}---\n{seam}{body}".replace("\n", newline)


@settings(max_examples=100, deadline=None)
@given(entrypoint())
def test_whole_file_canonicalisation_is_idempotent(text: str) -> None:
    from upskill.author.canonical import canonical_text

    once = canonical_text(text, KIND, PATH)
    assert canonical_text(once, KIND, PATH) == once
    assert "\r" not in once
    _, _, body = once.partition("\n---\n")
    assert body == "" or (body.startswith("\n") and not body.startswith("\n\n"))
    assert once.endswith("\n")


def test_empty_body_file_ends_at_the_closing_fence() -> None:
    from upskill.author.canonical import canonical_text

    text = "---\nname: x\nschema: 1\n---\n\n\n"
    assert canonical_text(text, "rule", Path("x/RULE.md")) == "---\nschema: 1\nname: x\n---\n"


def test_comment_only_frontmatter_is_kept_and_a_list_is_refused() -> None:
    import pytest

    from upskill.author.canonical import canonical_text
    from upskill.errors import FormatError

    text = "---\n# just a comment\n---\n\n## X\n"
    assert canonical_text(text, "rule", Path("x/RULE.md")) == text
    with pytest.raises(FormatError, match="frontmatter must be a YAML mapping"):
        canonical_text("---\n- a\n- b\n---\n\n## X\n", "rule", Path("x/RULE.md"))


def test_reorder_that_would_break_an_alias_is_refused() -> None:
    import pytest

    from upskill.errors import FormatError

    text = "x-shared: &who platform\nname: a\nmetadata:\n  author: *who\nschema: 1\n"
    # Moving `x-shared` (unknown, goes last) below its alias would break the document.
    with pytest.raises(FormatError, match="would change its data"):
        reorder_yaml(text, "rule", PATH)


def test_uncuttable_layout_is_kept_when_already_in_order() -> None:
    import pytest

    from upskill.errors import FormatError

    canonical = "{schema: 1, name: a, description: d}\n"
    assert reorder_yaml(canonical, "rule", PATH) == canonical
    with pytest.raises(FormatError, match="cannot reorder frontmatter safely"):
        reorder_yaml("{name: a, schema: 1}\n", "rule", PATH)
