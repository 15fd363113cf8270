"""Scanning, the FTS5 store and the public API client, without the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from upskill.errors import UsageError
from upskill.search import scan
from upskill.search.model import Entry, PublicHit
from upskill.search.public import (
    PublicSearchError,
    install_command,
    search_public,
    search_url,
)
from upskill.search.store import IndexStore, match_expression


def test_scan_depth_hidden_and_text(tmp_path: Path) -> None:
    (tmp_path / "skills/code-review").mkdir(parents=True)
    (tmp_path / "skills/code-review/SKILL.md").write_text(
        "---\nname: code-review\ndescription: >\n  Review pull\n  requests\n---\n\n"
        "# Title\n\n<!-- @client:claude -->\n```sh\nnot this\n```\n<!-- @endclient -->\n\n"
        "First paragraph\nspans lines.\n\nSecond.\n"
    )
    (tmp_path / "plugins/p/skills/deep-one").mkdir(parents=True)  # a marketplace, depth 4
    (tmp_path / "plugins/p/skills/deep-one/SKILL.md").write_text(
        "---\nname: deep-one\ndescription: Found where add finds it\n---\n\nDeep.\n"
    )
    (tmp_path / "lint-rule").mkdir()
    (tmp_path / "lint-rule/RULE.md").write_text("no frontmatter at all\n")
    (tmp_path / "a/b/too-deep").mkdir(parents=True)
    (tmp_path / "a/b/too-deep/SKILL.md").write_text("---\nname: x\n---\n")
    (tmp_path / ".hidden/item").mkdir(parents=True)
    (tmp_path / ".hidden/item/SKILL.md").write_text("---\nname: x\n---\n")
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken/AGENT.md").write_text("---\n: [unclosed\n---\nBody text.\n")
    # Exactly what `add` installs: the invalid items (no description, unparsable
    # frontmatter) are left out, as `add` leaves them out; hidden trees are not entered.
    assert scan.scan(tmp_path) == [
        Entry("deep-one", "skill", "Found where add finds it", "Deep.",
              "plugins/p/skills/deep-one"),
        Entry("code-review", "skill", "Review pull requests", "First paragraph spans lines.",
              "skills/code-review"),
    ]  # fmt: skip
    before = scan.fingerprint(tmp_path)
    assert scan.fingerprint(tmp_path) == before
    (tmp_path / "lint-rule/RULE.md").write_text("changed text\n")
    assert scan.fingerprint(tmp_path) != before


def test_match_expression() -> None:
    assert match_expression("Code-Review  code") == (
        '{name description paragraph} : ("code"* OR "review"*)'
    )
    with pytest.raises(UsageError, match="no searchable words"):
        match_expression("--- !!")


def entries(*specs: tuple[str, str, str]) -> list[Entry]:
    return [Entry(n, "skill", d, p, n) for n, d, p in specs]


def test_ranking_boosts_names_and_spans_public(tmp_path: Path) -> None:
    store = IndexStore(tmp_path / "i.sqlite3")
    a = entries(
        ("changelog", "Write changelogs; mentions review once", ""),
        ("code-review", "Review code", ""),
        ("unrelated", "Nothing to see", "Really nothing"),
        *((f"filler-{i}", f"Filler number {i}", "") for i in range(20)),
    )
    b = entries(("review-helper", "Helps", ""), ("pr-notes", "Summaries", "After a review."))
    store.replace("a", "./a", "h1", a, [f"add a {e.name}" for e in a], "1")
    store.replace("b", "./b", "h2", b, [f"add b {e.name}" for e in b], "2")
    public = [(PublicHit("review", "github/o/r", 42), "upskill add o/r review")]
    hits = store.search("review", registries=["a", "b"], public=public, limit=10)
    assert [(h.name, h.origin) for h in hits] == [
        ("review", "skills.sh"),  # exact name first
        ("code-review", "a"),
        ("review-helper", "b"),
        ("changelog", "a"),
        ("pr-notes", "b"),
    ]
    assert hits[0].installs == 42 and hits[0].install == "upskill add o/r review"
    assert hits[1].score >= hits[2].score >= hits[3].score > 0
    # Public rows are never persisted; registry filters and kind filters apply.
    assert [h.name for h in store.search("review", registries=["b"], limit=10)] == [
        "review-helper",
        "pr-notes",
    ]
    assert store.search("review", registries=["a", "b"], kind="rule") == []
    assert [h.name for h in store.search("rev", registries=["a"], limit=1)] == ["code-review"]
    store.clear("a")
    assert store.state("a") is None and store.state("b") is not None
    store.clear()
    assert not (tmp_path / "i.sqlite3").exists()


def test_corrupt_index_is_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "i.sqlite3"
    path.write_bytes(b"not a database" * 100)
    store = IndexStore(path)
    assert store.state("a") is None
    store.replace("a", "./a", "h", entries(("x", "y", "")), ["add x"], "1")
    assert store.state("a") is not None


def test_public_client_encodes_and_parses() -> None:
    seen: list[tuple[str, float]] = []

    def fetch(url: str, timeout: float) -> bytes:
        seen.append((url, timeout))
        return (
            b'{"skills": [{"name": "a", "installs": 3, "source": "github/o/r"},'
            b' {"name": 5}, {"name": "b", "source": "gitlab/g/r"}]}'
        )

    env = {"UPSKILL_REGISTRY_URL": "http://x.test/"}
    hits = search_public("a&b c#d", 7, env, fetch)
    assert seen == [("http://x.test/api/search?q=a%26b+c%23d&limit=7", 15.0)]
    assert hits == [PublicHit("a", "github/o/r", 3), PublicHit("b", "gitlab/g/r", None)]
    assert [install_command(h) for h in hits] == [
        "upskill add o/r a",
        "upskill add https://gitlab.com/g/r b",
    ]
    assert search_url("q", 1, {}) == "https://skills.sh/api/search?q=q&limit=1"
    for body, message in [
        (b"<html>", "malformed JSON"),
        (b'{"results": []}', "no `skills` list"),
    ]:
        with pytest.raises(PublicSearchError, match=message):
            search_public("q", 1, env, lambda u, t, b=body: b)  # type: ignore[misc]
