"""`upskill search` / `upskill index` end to end: two registries plus a fake skills.sh."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from terminal_corpus import CORPUS, assert_inert


@pytest.fixture
def world(
    cli: Any, skills_sh: Any, make_git_registry: Any, item_writer: Any, tmp_path: Path
) -> Any:
    """corp: a git registry (github shorthand served from file://); team: a local directory."""
    corp = make_git_registry("corp/skills")
    item_writer(corp.work, "skills/code-review", "skill", "Review pull requests", "Checks diffs.")
    item_writer(corp.work, "skills/commit-style", "rule", "Commit message style", "Be brief.")
    item_writer(
        corp.work, "skills/security-reviewer", "agent", "Audits code for vulnerabilities", "Audit."
    )
    for i in range(12):
        item_writer(corp.work, f"skills/filler-{i}", "skill", f"Filler {i}", "Nothing.")
    corp.publish("init")
    team = tmp_path / "team"
    item_writer(team, "review-checklist", "skill", "Checklist for a review", "Steps.")
    item_writer(team, "deploy", "skill", "Deploy things", "Ship it.")
    cli.config(f"registries:\n  - {{name: corp, source: corp/skills}}\n"
               f"  - {{name: team, source: {team}}}\n")  # fmt: skip
    skills_sh.skills = [
        {"name": "review", "installs": 1200, "source": "github/acme/skills"},
        {"name": "pr-summary", "installs": 50, "source": "github/acme/skills"},
    ]
    cli.corp = corp
    cli.team = team
    return cli


def test_search_ranks_across_registries_and_public(world: Any, skills_sh: Any) -> None:
    done = world.run("search", "review", "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    results = json.loads(done.stdout)["results"]
    assert [(r["name"], r["origin"]) for r in results] == [
        ("review", "skills.sh"),
        ("code-review", "corp"),
        ("review-checklist", "team"),
        ("security-reviewer", "corp"),
        ("pr-summary", "skills.sh"),  # the server returned it; no word of ours matches
    ]
    assert results[1] == {
        "name": "code-review", "kind": "skill", "description": "Review pull requests",
        "origin": "corp", "install": "upskill add corp/skills code-review", "installs": None,
        "score": results[1]["score"],
    }  # fmt: skip
    assert results[0]["installs"] == 1200
    assert results[0]["install"] == "upskill add acme/skills review"
    assert skills_sh.requests == ["/api/search?q=review&limit=10"]
    cache = Path(world.env["XDG_CACHE_HOME"]) / "upskill/index/index.sqlite3"
    assert cache.is_file()


def test_text_output_limit_kind_and_registry(world: Any, skills_sh: Any) -> None:
    done = world.run("search", "review", "-l", "2")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (
        "review [skill]  skills.sh  1200 installs\n"
        "  upskill add acme/skills review\n"
        "\n"
        "code-review [skill]  corp\n"
        "  Review pull requests\n"
        "  upskill add corp/skills code-review\n"
    )
    done = world.run("search", "style", "--kind", "rule")
    assert done.stdout == (
        "commit-style [rule]  corp\n"
        "  Commit message style\n"
        "  upskill add corp/skills commit-style\n"
    )
    assert len(skills_sh.requests) == 1  # --kind rule skips skills.sh
    done = world.run("search", "review", "-r", "team", "--json")
    assert [r["name"] for r in json.loads(done.stdout)["results"]] == ["review-checklist"]
    assert len(skills_sh.requests) == 1  # --registry skips skills.sh
    done = world.run("search", "review", "-r", "nope")
    assert done.returncode == 2
    assert done.stderr == "upskill: error: unknown registry 'nope' (configured: corp, team)\n"
    assert world.run("search", "-l", "0", "x").returncode == 2


def test_index_follows_heads_and_survives_offline(
    world: Any, item_writer: Any, skills_sh: Any
) -> None:
    done = world.run("index")
    assert (done.returncode, done.stdout, done.stderr) == (
        0, "corp: indexed 15 items\nteam: indexed 2 items\n", "",
    )  # fmt: skip
    # The remote head moves: the next search re-fetches and sees the new item.
    item_writer(world.corp.work, "skills/reviewdog", "skill", "Lint in review", "Dog.")
    world.corp.publish("add reviewdog")
    item_writer(world.team, "review-bot", "skill", "A bot", "Beep.")
    names = [
        r["name"]
        for r in json.loads(world.run("search", "review", "--json", "-l", "20").stdout)["results"]
    ]
    assert "reviewdog" in names and "review-bot" in names
    # Offline: the remote is gone; the cached rows answer with a warning.
    shutil.rmtree(world.corp.bare)
    skills_sh.status = 503
    done = world.run("search", "code", "--json")
    assert done.returncode == 0
    assert [r["name"] for r in json.loads(done.stdout)["results"]] == [
        "code-review",
        "security-reviewer",
    ]
    assert done.stderr.startswith("warning: registry corp: using the cached index (")
    assert "warning: public registry: skills.sh answered HTTP 503\n" in done.stderr
    # Clearing the index leaves nothing to fall back on for corp.
    assert world.run("index", "--clear", "-r", "corp").stdout == (
        "cleared the search index for registry corp\n"
    )
    done = world.run("search", "code")
    assert done.returncode == 0  # team still answered
    assert "warning: registry corp: unavailable (" in done.stderr
    assert world.run("index", "--clear").returncode == 0
    assert not (Path(world.env["XDG_CACHE_HOME"]) / "upskill/index/index.sqlite3").exists()


def test_no_registries_and_public_down_fails(cli: Any, skills_sh: Any) -> None:
    skills_sh.raw = b"<html>"
    done = cli.run("search", "anything")
    assert done.returncode == 1
    assert done.stderr == (
        "warning: public registry: skills.sh answered with malformed JSON\n"
        "upskill: error: no registry could be searched\n"
    )
    skills_sh.raw = None
    done = cli.run("search", "nothing-matches")
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr == "no results for 'nothing-matches'\n"
    assert cli.run("index").stderr.startswith("no registries configured")


def test_malformed_config_is_one_error_line(cli: Any) -> None:
    cli.config("registries: [unclosed\n")
    done = cli.run("search", "x")
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"upskill: error: {cli.cwd / '.upskill/config.yaml'}:")


def test_proxy_variables_are_honoured(cli: Any, skills_sh: Any) -> None:
    """The fake server doubles as an HTTP proxy: it sees the absolute request URL."""
    skills_sh.skills = [{"name": "via-proxy", "installs": 1, "source": "github/o/r"}]
    cli.env["UPSKILL_REGISTRY_URL"] = "http://skills.invalid"
    cli.env["http_proxy"] = cli.env["HTTP_PROXY"] = skills_sh.url
    done = cli.run("search", "a b&c", "--json")
    assert done.returncode == 0, done.stderr
    assert skills_sh.requests == ["http://skills.invalid/api/search?q=a+b%26c&limit=10"]
    # No query word matches: the public hit still comes back, after any matches.
    results = json.loads(done.stdout)["results"]
    assert [(r["name"], r["score"]) for r in results] == [("via-proxy", 0.0)]
    done = cli.run("search", "proxy", "--json")
    assert [r["name"] for r in json.loads(done.stdout)["results"]] == ["via-proxy"]


def test_search_closes_its_index_when_the_query_fails(
    cli: Any, item_writer: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In process, so the store's close can be watched: it runs in a `finally`."""
    from upskill.cli import main
    from upskill.errors import UsageError
    from upskill.search.store import IndexStore

    item_writer(tmp_path / "team", "deploy", "skill", "Deploy things", "Ship it.")
    cli.config(f"registries:\n  - {{name: team, source: {tmp_path / 'team'}}}\n")
    for key, value in cli.env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(cli.cwd)
    closed: list[IndexStore] = []
    real_close = IndexStore.close

    def close(self: IndexStore) -> None:
        closed.append(self)
        real_close(self)

    def search(self: IndexStore, *args: object, **kwargs: object) -> object:
        raise UsageError("query refused")

    monkeypatch.setattr(IndexStore, "close", close)
    monkeypatch.setattr(IndexStore, "search", search)
    assert main(["search", "-r", "team", "deploy"]) == 2
    assert len(closed) == 1 and closed[0]._db is None


@pytest.mark.parametrize("seq", CORPUS.values(), ids=CORPUS.keys())
def test_public_answers_are_printed_escaped(cli: Any, skills_sh: Any, seq: str) -> None:
    """Issue 24, 1: whatever skills.sh answers reaches the terminal escaped."""
    skills_sh.skills = [
        {"name": f"demo{seq}", "source": f"github/acme/x{seq}", "description": f"d {seq}"}
    ]
    done = cli.run("search", "demo")
    assert done.returncode == 0, done.stderr
    assert "demo" in done.stdout and "\\x" in done.stdout
    assert_inert(done.stdout + done.stderr)
