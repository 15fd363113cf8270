"""Git sources over file:// (no network): refs, subpaths, the clone cache, env scrubbing."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from upskill.sources.fetch import Fetcher
from upskill.sources.git import GitCache, GitError, default_runner, git_env
from upskill.sources.spec import parse_source
from upskill.world import World


@pytest.fixture
def repo(make_git_source, h):
    src = make_git_source("acme/skills")
    h.write_item(src.work, "rule", "style", "v1 style.\n")
    first = src.commit("v1")
    src.tag("v1")
    h.git(src.work, "checkout", "-q", "-b", "next")
    h.write_item(src.work, "rule", "style", "next style.\n")
    h.git(src.work, "add", "-A")
    h.git(src.work, "commit", "-q", "-m", "next")
    h.git(src.work, "push", "-q", "origin", "next")
    nxt = h.git(src.work, "rev-parse", "HEAD")
    h.git(src.work, "checkout", "-q", "main")
    (src.work / "nested").mkdir()
    h.write_item(src.work / "nested", "skill", "deep", "Deep skill.\n")
    head = src.commit("main")
    return src, {"v1": first, "next": nxt, "main": head}


def body_of(root: Path, rel: str) -> str:
    return (root / rel).read_text()


@pytest.mark.parametrize(
    ("ref", "expect"),
    [(None, "main"), ("v1", "v1"), ("next", "next"), ("main", "main")],
)
def test_refs(ref, expect, repo, tmp_path):
    src, commits = repo
    cache = GitCache(tmp_path / "cache", default_runner(os.environ))
    out = cache.checkout(src.url, ref)
    assert out.commit == commits[expect]
    text = body_of(out.tree, "skills/style/RULE.md")
    assert ("next style" in text) == (expect == "next")


def test_full_and_short_sha(repo, tmp_path):
    src, commits = repo
    cache = GitCache(tmp_path / "cache", default_runner(os.environ))
    assert cache.checkout(src.url, commits["v1"]).commit == commits["v1"]
    assert cache.checkout(src.url, commits["next"][:8]).commit == commits["next"]


def test_unknown_ref_and_bad_url(repo, tmp_path):
    src = repo[0]
    cache = GitCache(tmp_path / "cache", default_runner(os.environ))
    with pytest.raises(GitError, match="no branch, tag or commit named 'nope'"):
        cache.checkout(src.url, "nope")
    with pytest.raises(GitError, match="git fetch failed"):
        cache.checkout(f"file://{tmp_path}/missing.git", None)


def test_cache_is_reused_and_trees_are_per_commit(repo, tmp_path, h):
    src = repo[0]
    calls: list[list[str]] = []
    base = default_runner(os.environ)

    def spy(argv, cwd):
        calls.append(list(argv))
        return base(argv, cwd)

    cache = GitCache(tmp_path / "cache", spy)
    first = cache.checkout(src.url, None)
    marker = first.tree / "skills" / "style" / "RULE.md"
    mtime = marker.stat().st_mtime_ns
    calls.clear()
    again = cache.checkout(src.url, None)
    assert again.tree == first.tree and marker.stat().st_mtime_ns == mtime
    assert [c[0] for c in calls] == ["fetch", "rev-parse"]  # no init, no clone, no export
    h.write_item(src.work, "rule", "style", "v3.\n")
    third = src.commit("v3")
    moved = cache.checkout(src.url, None)
    assert moved.commit == third and moved.tree != first.tree
    assert len(list((moved.tree.parent).iterdir())) == 2


def test_environment_is_scrubbed():
    env = git_env({"GIT_DIR": "/x", "GIT_WORK_TREE": "/y", "GIT_INDEX_FILE": "/z", "PATH": "p"})
    assert env["PATH"] == "p" and env["GIT_TERMINAL_PROMPT"] == "0"
    assert not {"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"} & set(env)


def test_parallel_fetch_of_distinct_sources(make_git_source, h, tmp_path):
    sources = []
    for name in ("acme/one", "acme/two", "acme/three"):
        src = make_git_source(name)
        h.write_item(src.work, "rule", name.split("/")[1], "x\n")
        src.commit()
        sources.append(src)
    env = {
        **os.environ,
        "UPSKILL_GITHUB_BASE": f"file://{tmp_path / 'github'}",
        "XDG_CACHE_HOME": str(tmp_path / "xdg"),
    }
    specs = [
        parse_source(n, cwd=tmp_path, home=tmp_path)
        for n in ("acme/one", "acme/two", "acme/three", "acme/one:skills")
    ]
    fetched = Fetcher(World(tmp_path, tmp_path, env)).fetch_all(specs)
    assert [f.root.name for f in fetched.values()] == [
        fetched[specs[0]].root.name,
        fetched[specs[1]].root.name,
        fetched[specs[2]].root.name,
        "skills",
    ]
    assert all(f.commit for f in fetched.values())
    assert len(list((tmp_path / "xdg" / "upskill" / "git").iterdir())) == 3


def test_cli_subpath_pin_and_scrubbed_git_dir(repo, cli, project, h):
    commits = repo[1]
    out = cli.ok(
        "add",
        "acme/skills@next:skills",
        "--claude",
        cwd=project,
        extra={"GIT_DIR": str(project / "nope"), "GIT_WORK_TREE": "/"},
    )
    assert "next style" in (project / ".claude/rules/style.md").read_text()
    lock = json.loads((project / ".upskill-lock.json").read_text())
    assert lock["items"][0]["source"] == "github:acme/skills@next:skills"
    assert lock["items"][0]["commit"] == commits["next"]
    assert "1 item installed for claude" in out.stderr


def test_cli_missing_subpath_and_ref_fail_cleanly(repo, cli, project, h):
    assert repo
    before = h.snapshot(project)
    out = cli.run("add", "acme/skills:nowhere", cwd=project)
    assert out.returncode == 1 and "'nowhere' not found" in out.stderr
    out = cli.run("add", "acme/skills@v9", cwd=project)
    assert out.returncode == 1 and "no branch, tag or commit named 'v9'" in out.stderr
    assert h.snapshot(project) == before


def test_cli_update_follows_branch_but_not_tag(repo, cli, project, h):
    src, _ = repo
    cli.ok("add", "acme/skills@v1", "--claude", cwd=project)
    h.write_item(src.work, "rule", "style", "newer.\n")
    src.commit("moves main")
    cli.ok("update", cwd=project)
    assert "v1 style" in (project / ".claude/rules/style.md").read_text()
    cli.ok("remove", "style", cwd=project)
    cli.ok("add", "acme/skills", "style", "--claude", cwd=project)
    h.write_item(src.work, "rule", "style", "newest.\n")
    src.commit("moves main again")
    out = cli.ok("update", cwd=project)
    assert "newest" in (project / ".claude/rules/style.md").read_text()
    assert "1 item updated" in out.stderr


def test_generic_https_host_uses_argument_lists_and_no_credentials(tmp_path):
    """Any https host (nested groups): cloned from `<url>.git`, URL after `--`."""
    calls: list[list[str]] = []

    class Done(Exception):
        pass

    def fake(argv, cwd):
        calls.append(list(argv))
        if argv[0] == "fetch":
            raise Done
        import subprocess

        return subprocess.CompletedProcess(argv, 0, b"", b"")

    spec = parse_source(
        "https://git.example.com/group/sub/team/repo@v2:skills", cwd=tmp_path, home=tmp_path
    )
    fetcher = Fetcher(
        World(tmp_path, tmp_path, {"XDG_CACHE_HOME": str(tmp_path / "c")}), runner=fake
    )
    with pytest.raises(Done):
        fetcher.fetch_all([spec])
    fetch = next(c for c in calls if c[0] == "fetch")
    dash = fetch.index("--")
    assert fetch[dash + 1] == "https://git.example.com/group/sub/team/repo.git"
    assert all("@" not in arg.split("//")[-1].split("/")[0] for arg in fetch if "://" in arg)


def test_cli_bundle_file_in_a_git_source(repo, cli, project, h):
    src = repo[0]
    h.write_bundle(
        src.work, "core", "schema: 1\nname: core\ndescription: c\nitems:\n  rules: [style]\n"
    )
    src.commit("bundle")
    cli.ok("add", "acme/skills:skills/core.bundle.yaml", "--claude", cwd=project)
    lock = json.loads((project / ".upskill-lock.json").read_text())
    assert [(i["name"], i["source"]) for i in lock["items"]] == [
        ("style", "github:acme/skills:skills/core.bundle.yaml")
    ]
    assert lock["bundles"][0]["name"] == "core"


def test_symlinks_leaving_the_tree_are_not_exported(make_git_source, h, tmp_path):
    src = make_git_source("acme/links")
    h.write_item(src.work, "rule", "style", "x\n")
    (src.work / "skills" / "style" / "escape").symlink_to("/etc/passwd")
    (src.work / "skills" / "style" / "up").symlink_to("../../..")
    (src.work / "skills" / "style" / "ok").symlink_to("RULE.md")
    src.commit()
    out = GitCache(tmp_path / "cache", default_runner(os.environ)).checkout(src.url, None)
    style = out.tree / "skills" / "style"
    assert (style / "RULE.md").is_file()
    assert not (style / "escape").exists() and not (style / "escape").is_symlink()
    assert not (style / "up").is_symlink()
    assert (style / "ok").is_symlink()


def test_https_source_through_git_insteadof_and_historical_label_migration(
    make_git_source, cli, h, project, tmp_path
):
    """Any https host works through git's own configuration (here `insteadOf` to a local
    mirror, as a credential helper or ssh rewrite would); an old `gitlab:` label in the
    lockfile is updated in place and rewritten as https."""
    src = make_git_source("group/sub/skills")
    h.write_item(src.work, "rule", "style", "v1.\n")
    src.commit()
    src.tag("v1")
    gitconfig = tmp_path / "gitconfig"
    gitconfig.write_text(
        f'[url "file://{tmp_path / "github"}/"]\n\tinsteadOf = https://gitlab.com/\n'
    )
    env = {"GIT_CONFIG_GLOBAL": str(gitconfig)}
    cli.ok("add", "https://gitlab.com/group/sub/skills@v1", "--claude", cwd=project, extra=env)
    lock_path = project / ".upskill-lock.json"
    lock = json.loads(lock_path.read_text())
    assert lock["items"][0]["source"] == "https://gitlab.com/group/sub/skills@v1"
    # An older upskill recorded the same install with the removed shorthand.
    lock["items"][0]["source"] = "gitlab:group/sub/skills@v1"
    lock_path.write_text(json.dumps(lock, indent=2) + "\n")
    before = lock_path.read_bytes()
    assert cli.ok("list", cwd=project, extra=env) and lock_path.read_bytes() == before
    cli.ok("update", "--dry-run", cwd=project, extra=env)
    assert lock_path.read_bytes() == before
    cli.ok("update", cwd=project, extra=env)
    assert json.loads(lock_path.read_text())["items"][0]["source"] == (
        "https://gitlab.com/group/sub/skills@v1"
    )
    assert "v1." in (project / ".claude/rules/style.md").read_text()


def test_a_corrupted_mirror_is_rebuilt_and_git_errors_are_shown_whole(repo, tmp_path):
    """issue 13, "Smaller": a corrupted cache no longer fails forever; a git failure shows
    all of git's stderr, not its last line."""
    src, commits = repo
    cache = GitCache(tmp_path / "cache", default_runner(os.environ))
    first = cache.checkout(src.url, None)
    bare = first.tree.parent.parent / "repo.git"
    (bare / "HEAD").write_text("garbage\n")  # git no longer sees a repository here
    (bare / "config").write_text("[[[ not a config\n")
    again = cache.checkout(src.url, None)
    assert again.commit == commits["main"]
    missing = f"file://{tmp_path}/missing.git"
    with pytest.raises(GitError) as err:
        cache.checkout(missing, None)
    message = str(err.value)
    assert message.startswith(f"{missing}: git fetch failed: fatal: ")
    assert "; " in message  # every line of git's explanation, joined on one line
    assert "\n" not in message
