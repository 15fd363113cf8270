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
