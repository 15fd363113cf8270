"""`upskill fmt` never changes a document's CommonMark structure (issue 16, item 4).

The property: markdown-it's token stream of a body is the same before and
after formatting. Compared strictly: token types, tags, nesting, tight/loose
lists (`hidden`), ordered-list starts, table alignment, link destinations and
titles, the text of inline content (adjacent text tokens joined), and the
exact content and info string of code, fences and HTML. Ignored: source
positions (`map`), the spelling of markers (`markup`: `*` or `-`, `---`
or `___`, three or four backticks, `3.` or `03.`), whether a code block
is indented or fenced (the same `<pre><code>`), the up-to-three-space
indent of an HTML block's lines, and in text the width of runs of spaces
and a soft line break versus a space (a renderer collapses them all), which
are formatting. The formatter's own guard (`markdown.structure`) makes the
same comparison; this oracle is kept separate so that a fault in one shows.
Documents are generated with nested lists, fences inside list items (well and
badly indented), nested fences, tables, HTML, escapes, thematic breaks and
ordered lists with any start.
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from upskill.author.canonical import canonical_body
from upskill.markdown import format_body

_SPACES = re.compile(r"[ \t]+")
_PARSERS = {
    "commonmark": MarkdownIt("commonmark"),
    "gfm": MarkdownIt("commonmark").enable(["table", "strikethrough"]),
}


def _inline(children: list[Token]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for child in children:
        if child.type in ("text", "softbreak"):
            text = _SPACES.sub(" ", " " if child.type == "softbreak" else child.content)
            if out and out[-1][0] == "text":
                out[-1] = ("text", _SPACES.sub(" ", out[-1][1] + text))
            else:
                out.append(("text", text))
        elif child.type in ("code_inline", "html_inline"):
            out.append((child.type, child.content))
        elif child.type == "image":
            out.append((child.type, dict(child.attrs), _inline(child.children or [])))
        else:
            out.append((child.type, child.tag, child.nesting, dict(child.attrs)))
    return out


def _html(content: str) -> str:
    """An HTML block's lines without the up-to-three-space indent of the block."""
    return "\n".join(
        line[min(len(line) - len(line.lstrip(" ")), 3) :] for line in content.split("\n")
    )


def structure(text: str, flavour: str = "gfm") -> list[tuple[Any, ...]]:
    """The token stream with positions and marker spellings left out."""
    out: list[tuple[Any, ...]] = []
    for token in _PARSERS[flavour].parse(text):
        kind = "code" if token.type in ("fence", "code_block") else token.type
        entry: tuple[Any, ...] = (kind, token.tag, token.nesting, token.hidden)
        if token.type in ("fence", "code_block"):
            entry += (token.content, token.info.strip())
        if token.type == "html_block":
            entry += (_html(token.content),)
        if token.type == "ordered_list_open":
            entry += (token.attrs.get("start", 1),)
        if token.type in ("th_open", "td_open"):
            entry += (token.attrs.get("style"),)
        if token.type == "inline":
            entry += (_inline(token.children or []),)
        out.append(entry)
    return out


_WORDS = st.sampled_from(
    [
        "word",
        "Scores <150 are low",
        "=B5*(1+$B$6)",
        "snake_case_name",
        "a * b",
        "*em*",
        "__strong__",
        "`code`",
        "``code with ` tick``",
        "\\*escaped\\*",
        "C:\\Users\\me",
        "<b>html</b>",
        "&amp; &copy;",
        "AT&T",
        '[link](./a.md "t")',
        "![img](b.png)",
        "<https://example.com>",
        "~~gone~~",
        "wow!",
        "# not a heading",
        "3. not a list",
        "+ not a bullet",
        "trailing backslash\\",
        "x  ",
        "a | b",
    ]
)
_LINE = st.lists(_WORDS, min_size=1, max_size=4).map(" ".join)


def _indent(text: str, pad: str) -> str:
    return "\n".join(pad + line if line else line for line in text.split("\n"))


@st.composite
def _fence(draw: st.DrawFn) -> str:
    char = draw(st.sampled_from(["`", "~"]))
    inner = draw(
        st.sampled_from(["", "```bash\nmake\n```", "~~~\nx\n~~~", "````", "code\n\n  more"])
    )
    length = draw(st.integers(3, 5))
    if char == "`" and "```" in inner:
        length = max(length, 4)
    if char == "~" and "~~~" in inner:
        length = max(length, 4)
    info = draw(st.sampled_from(["", "python", "md title=x"]))
    fence = char * length
    return f"{fence}{info}\n{inner}\n{fence}" if inner else f"{fence}{info}\n{fence}"


def _blocks(depth: int) -> st.SearchStrategy[str]:
    leaves = st.one_of(
        st.lists(_LINE, min_size=1, max_size=3).map("\n".join),
        st.builds(lambda level, line: "#" * level + " " + line, st.integers(1, 6), _LINE),
        _LINE.map(lambda line: f"{line}\n---"),
        st.sampled_from(["---", "***", "___", "- - -"]),
        _fence(),
        st.lists(_LINE, min_size=1, max_size=2).map(lambda ls: "\n".join("    " + x for x in ls)),
        st.sampled_from(
            [
                "<div>\n*not emphasis*\n</div>",
                "<!-- a comment -->",
                "<details>\n<summary>More</summary>\n\nInside.\n\n</details>",
            ]
        ),
        st.builds(
            lambda n, align, cell: (
                "| h | " * n + "|\n" + "|" + f"{align}|" * n + "\n" + f"| {cell} " * n + "|"
            ),
            st.integers(1, 3),
            st.sampled_from(["---", ":--", "--:", ":-:"]),
            _LINE.map(lambda s: s.replace("|", "\\|")),
        ),
    )
    if depth == 0:
        return leaves
    inner = _blocks(depth - 1)
    return st.one_of(leaves, _list(inner), _quote(inner))


def _list(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    @st.composite
    def build(draw: st.DrawFn) -> str:
        ordered = draw(st.booleans())
        start = draw(st.sampled_from([0, 1, 3, 9, 10, 99]))
        bullet = draw(st.sampled_from(["-", "*", "+"]))
        delimiter = draw(st.sampled_from([".", ")"]))
        gap = draw(st.sampled_from(["\n", "\n\n"]))
        items = []
        for index in range(draw(st.integers(1, 4))):
            marker = f"{start + index}{delimiter} " if ordered else f"{bullet} "
            pad = " " * len(marker)
            children = draw(st.lists(inner, min_size=1, max_size=3))
            joiner = draw(st.sampled_from(["\n", "\n\n"]))
            text = joiner.join(children)
            if draw(st.integers(0, 9)) == 0:
                pad = pad[:-1]  # a child indented one space short
            items.append(marker + _indent(text, pad)[len(pad) :])
        return gap.join(items)

    return build()


def _quote(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.lists(inner, min_size=1, max_size=2).map(
        lambda blocks: "\n".join(
            "> " + line if line else ">" for line in "\n\n".join(blocks).split("\n")
        )
    )


documents = st.lists(_blocks(2), min_size=1, max_size=5).map(lambda bs: "\n\n".join(bs) + "\n")


@settings(max_examples=300, deadline=None)
@given(documents)
# A setext heading whose text looks like a table row: the formatter's GFM reading saw a
# table, plain CommonMark a heading; the formatted body is now refused (kept as written).
@example("# word\n\n- word\n ---\n | h | |\n |---|\n | word |\n ---\n")
def test_formatting_keeps_the_token_stream(text: str) -> None:
    formatted = format_body(text)
    for flavour in _PARSERS:
        assert structure(formatted, flavour) == structure(text, flavour)
    assert format_body(formatted) == formatted


NESTED_FENCES = [
    # a four-backtick fence showing a three-backtick one
    "````markdown\n```bash\nmake check\n```\n````\n\nProse after.\n",
    # the same inside a list item
    "1. Example:\n\n   ````markdown\n   ```bash\n   make check\n   ```\n   ````\n\n"
    "2. Next.\n\nProse.\n",
    # tildes around backticks, backticks around tildes
    "~~~md\n```\ninner\n```\n~~~\n\n```md\n~~~\ninner\n~~~\n```\n",
    # a fence in a list item whose content is indented less than the item
    "1. Run:\n   ```bash\n echo hi\n   ```\n2. Then.\n\nProse after.\n",
    # a fence in a list item closed at column 0, which ends the item first
    "- Step:\n  ```sh\n  echo hi\n```\n\nProse after.\n",
    # a fence whose content holds a longer backtick run than its own fence
    "- item\n\n  ```text\n  ``````\n  ```\n\nAfter.\n",
]


def test_nested_fences_keep_their_structure() -> None:
    for text in NESTED_FENCES:
        formatted = format_body(text)
        for flavour in _PARSERS:
            assert structure(formatted, flavour) == structure(text, flavour), text
        assert format_body(formatted) == formatted, text


def test_canonical_body_keeps_the_structure_of_a_nested_fence() -> None:
    text = NESTED_FENCES[1]
    assert structure(canonical_body(text)) == structure(text)


def test_a_list_whose_items_hold_no_paragraph_is_formatted_loose() -> None:
    """mdformat alone joins such items' blocks with single newlines, and the HTML
    block then swallows the heading; the list is now rendered loose instead."""
    text = "* <div>\n  x\n  </div>\n\n  # word\n* ## next\n"
    assert format_body(text) == "- <div>\n  x\n  </div>\n\n  # word\n\n- ## next\n"


def test_a_body_the_formatter_would_restructure_is_left_as_written(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from upskill.markdown import engine, formatter

    text = "Some *text*\n\n* item\n"
    monkeypatch.setattr(engine, "render", lambda tokens, env: "Some text\n")
    formatter._format.cache_clear()
    try:
        assert format_body(text) == text
    finally:
        formatter._format.cache_clear()


def test_fmt_says_which_bodies_it_left_as_written(monkeypatch, work, upskill) -> None:  # type: ignore[no-untyped-def]
    """A body the formatter would restructure is kept, and `fmt` (and `--check`) says so
    per file, on stderr, while the frontmatter is still put in canonical order."""
    from upskill.markdown import engine, formatter

    render = engine.render

    def lossy(tokens, env):  # type: ignore[no-untyped-def]
        out = render(tokens, env)
        return out.replace("*kept*", "kept")  # drops the emphasis: another structure

    monkeypatch.setattr(engine, "render", lossy)
    formatter._format.cache_clear()
    skill = work / "skills" / "a" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\ndescription: Use when a\nschema: 1\n---\n\nSome *kept* text\n")
    plain = work / "skills" / "b" / "SKILL.md"
    plain.parent.mkdir(parents=True)
    plain.write_text("---\nschema: 1\ndescription: Use when b\n---\n\nPlain text\n")
    try:
        check = upskill("fmt", "--check")
        done = upskill("fmt")
    finally:
        formatter._format.cache_clear()
    warning = (
        "warning: skills/a/SKILL.md: body left as written: formatting it would change its "
        "Markdown structure (what it says), so only the frontmatter is canonicalised\n"
    )
    assert (check.returncode, check.stderr) == (1, warning)
    assert (
        check.stdout
        == "would reformat skills/a/SKILL.md\n2 file(s) checked, 1 would be reformatted\n"
    )
    assert (done.returncode, done.stderr) == (0, warning)
    canonical = "---\nschema: 1\ndescription: Use when a\n---\n\nSome *kept* text\n"
    assert skill.read_text() == canonical
    skill.write_text(canonical.replace("\n\nSome", "\n\n\n  \nSome") + "\n\n")
    formatter._format.cache_clear()
    monkeypatch.setattr(engine, "render", lossy)
    try:
        again = upskill("fmt")
        fixed_point = upskill("fmt", "--check")
    finally:
        formatter._format.cache_clear()
    assert (again.returncode, skill.read_text()) == (0, canonical)  # blank edges, one seam
    assert (fixed_point.returncode, fixed_point.stderr) == (0, warning)


def test_a_table_that_interrupts_a_paragraph_is_still_formatted() -> None:
    """GFM starts a table on the line after a paragraph; a plain CommonMark reader sees
    one paragraph, and two once the formatter puts the blank line before the table. That
    split is the only difference, so the body is formatted (a heading turned into a table
    is not: see the @example above)."""
    text = "word\nword\n| a | b |\n|---|---|\n"
    assert format_body(text) == "word\nword\n\n| a   | b   |\n| --- | --- |\n"
