"""The `@word`s Gemini CLI reads as imports (`render.imports`). tests/clients/
test_gemini_imports.py runs such texts through gemini-cli's own code, and
lifecycle/test_lifecycle_at_imports.py checks where upskill reports them."""

from __future__ import annotations

import pytest

from upskill.render.imports import at_imports


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Ask @security-team before merging.", ("security-team",)),
        ("@alone\n", ("alone",)),  # the start of the text counts as a space
        ("a\t@tab b\r@cr", ("tab", "cr")),
        ("see @./notes.md, or @/etc/x", ("./notes.md,", "/etc/x")),
        ("mail me@example.com", ()),  # no space before the `@`
        ("ask `@inline` or ``@two ` ticks``", ()),  # code spans
        ("```text\n@fenced\n```\n", ()),
        ("`open @after-unpaired", ("after-unpaired",)),  # a lone backtick is no span
        ("@1st @-x @_y @ x @É", ()),  # a word must start with ., / or an ASCII letter
        ("\\@escaped", ()),
        ("a @b@c @d", ("b@c", "d")),
    ],
)
def test_words_gemini_imports(text: str, words: tuple[str, ...]) -> None:
    assert tuple(w for _, w in at_imports(text)) == words


def test_offsets_point_at_the_at_sign() -> None:
    text = "x @a\n`@b`\n@c"
    assert [(text[i], w) for i, w in at_imports(text)] == [("@", "a"), ("@", "c")]
