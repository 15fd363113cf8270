"""engine.parser() is the parser mdformat's own `build_mdit` builds, minus the plugin scan.

The engine replays `build_mdit(MDRenderer, ..., extensions=("gfm",))` with
direct imports of the pinned mdformat-gfm plugin modules instead of
`mdformat.plugins.PARSER_EXTENSIONS` (an entry-point scan of every installed
distribution). These tests compare it with a parser built the mdformat way:
configuration, rule chains, and output bytes over a varied corpus and every
Markdown file of the conformance goldens. After a bump of either pin, a
failure here means the replay in engine.py must follow.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from upskill.markdown import engine, fastpath

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.ruler import Ruler

GOLDENS = Path(__file__).resolve().parents[3] / "conformance" / "upskill"
GOLDEN_FILES = sorted(GOLDENS.rglob("*.md"))

CORPUS = {
    "table-align-wide": (
        "|left|centre|right|none|\n|:--|:-:|--:|---|\n"
        "|漢字|✅ done|1|x|\n|a very long cell|b|22222|😀😀|\n"
    ),
    "table-inline": "| `a|b` | **c** | [d](e) |\n|---|---|---|\n| ~~s~~ | f\\|g | <br> |\n",
    "table-compact-rows": "a | b\n-|-\n1 | 2\n3\n",
    "tasks": (
        "- [ ] todo\n- [x] done\n- [X] Done too\n  - [ ] nested\n\n1. [ ] ordered\n2. [x] task\n"
    ),
    "tick-box-escape": "[x] not in a list\n\n[ ] neither\n",
    "strike": "~~gone~~ and ~single~ and a~~b~~c, plus escaped \\~~x~~\n",
    "autolinks": (
        "Visit www.example.com, https://x.y and <https://z.example/a?b=c>.\n"
        "Mail me@example.com or http://example.com/path_(x).\n"
    ),
    "nested-lists": "* a\n    * b\n        1. c\n        2. d\n* e\n\n  para in e\n\n+ other\n",
    "numbers": "3. three\n4. four\n\n1. one\n1. one again\n",
    "fences": "```python\ndef f():\n    return 1\n```\n\n~~~\ntilde\n~~~\n\n    indented code\n",
    "fence-in-list": "- item\n\n  ```sh\n  echo hi\n  ```\n",
    "reference-links": (
        "See [the docs][docs], [Docs][] and ![img][pic].\n\n"
        '[docs]: https://example.com/docs "Title"\n[pic]: ./a%20b.png\n'
    ),
    "html": (
        '<div align="center">\n\n**bold**\n\n</div>\n\n'
        "<!-- comment -->\n\nInline <kbd>Ctrl</kbd>.\n"
    ),
    "headings": "Title\n=====\n\nSub\n---\n\n#    Spaced   #\n###### six\n",
    "emphasis": "*em* _em_ **strong** __strong__ ***both*** a*b*c snake_case_word\n",
    "escapes": (
        "1\\. not a list\n\\# not a heading\n<notatag & amp; &copy;\n2 * 3 * 4 and a trailing!\n"
    ),
    "breaks": "hard  \nbreak and\\\nbackslash break\nsoft\n",
    "quotes": "> quote\n> > nested\n>\n> - list in quote\n\n---\n***\n",
    "frontmatter-like": "---\nname: x\n---\n\nbody\n",
}


def _reference() -> MarkdownIt:
    """A parser built exactly as before the replay: build_mdit plus the fast path."""
    from mdformat._util import build_mdit
    from mdformat.renderer import MDRenderer

    md = build_mdit(MDRenderer, mdformat_opts=engine.OPTIONS, extensions=engine.EXTENSIONS)
    md.options["parser_extension"].append(fastpath)
    return md


def _format(md: MarkdownIt, text: str) -> str:
    env: MutableMapping[str, Any] = {}
    out: str = md.renderer.render(md.parse(text, env), md.options, env)
    return out


def _chain(ruler: Ruler[Any]) -> list[tuple[str, bool, str, list[str]]]:
    """Every rule of a chain, enabled or not, with its function and alternates.

    Functions are named by module and qualified name: plugins such as task
    lists register a fresh closure per parser, so identity would differ.
    """
    return [
        (r.name, r.enabled, f"{r.fn.__module__}.{r.fn.__qualname__}", list(r.alt))
        for r in ruler.__rules__
    ]


def test_options_match_build_mdit() -> None:
    new, ref = engine.parser(), _reference()
    assert dict(new.options) == dict(ref.options)
    assert new.options["mdformat"] == {"wrap": "keep", "number": True, "end_of_line": "lf"}
    assert new.options["store_labels"] is True
    assert new.options["codeformatters"] == {}
    names = [m.__name__ for m in new.options["parser_extension"]]
    assert names == [
        "mdformat_gfm._mdformat_plugin",
        "mdformat_gfm._tables_plugin",
        "upskill.markdown.fastpath",
    ]
    assert new.options["parser_extension"] == ref.options["parser_extension"]


def test_rules_and_renderer_match_build_mdit() -> None:
    new, ref = engine.parser(), _reference()
    assert new.get_active_rules() == ref.get_active_rules()
    for part in ("core", "block", "inline", "inline2"):
        ruler_new = new.inline.ruler2 if part == "inline2" else getattr(new, part).ruler
        ruler_ref = ref.inline.ruler2 if part == "inline2" else getattr(ref, part).ruler
        assert _chain(ruler_new) == _chain(ruler_ref), part
    active = new.get_active_rules()
    assert {"table", "strikethrough"} <= set(active["block"]) | set(active["inline"])
    assert "linkify" not in active["core"]
    assert type(new.renderer) is type(ref.renderer)
    assert type(new.renderer).__name__ == "MDRenderer"
    assert vars(new.renderer) == vars(ref.renderer)


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_corpus_bytes_match_build_mdit(name: str) -> None:
    text = CORPUS[name]
    assert _format(engine.parser(), text) == _format(_reference(), text)


def test_corpus_exercises_every_gfm_extension() -> None:
    """The differential corpus really reaches tables, tasks, strikethrough and autolinks."""
    rendered = "".join(_format(engine.parser(), text) for text in CORPUS.values())
    assert "| :--------------- | :-----: | ----: | ---- |" in rendered
    assert "- [x] done" in rendered
    assert "~~gone~~" in rendered
    assert "www.example.com" in rendered


def test_goldens_bytes_match_build_mdit() -> None:
    assert len(GOLDEN_FILES) > 20
    new, ref = engine.parser(), _reference()
    for path in GOLDEN_FILES:
        text = path.read_text(encoding="utf-8")
        assert _format(new, text) == _format(ref, text), path


def test_building_the_parser_skips_the_plugin_scan() -> None:
    """`import mdformat` already imports importlib.metadata (mdformat.plugins
    does at module level), so the check is that the lazy entry-point scan,
    which caches its result in mdformat.plugins' globals, never ran."""
    code = (
        "import sys\n"
        "from upskill.markdown import engine\n"
        "engine.parser()\n"
        "engine.render(*engine.parse('| a |\\n|---|\\n| b |\\n\\n- [ ] t ~~s~~ www.x.org\\n'))\n"
        "import mdformat.plugins\n"
        "scan = ('PARSER_EXTENSIONS', '_PARSER_EXTENSION_DISTS', 'CODEFORMATTERS')\n"
        "print([k for k in scan if k in vars(mdformat.plugins)])\n"
        "print('mdformat_gfm._tables_plugin' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out == "[]\nTrue\n"
