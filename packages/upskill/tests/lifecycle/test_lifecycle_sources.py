"""The `<source>` grammar and lockfile labels (ADR-0011)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from upskill.errors import UsageError
from upskill.sources.spec import (
    SourceError,
    SourceKind,
    canonical_label,
    parse_label,
    parse_source,
)

CWD = Path("/work/proj")
HOME = Path("/home/u")


@pytest.mark.parametrize(
    ("text", "kind", "label", "ref", "sub"),
    [
        ("owner/repo", SourceKind.GITHUB, "github:owner/repo", None, None),
        ("owner/repo@v1.2", SourceKind.GITHUB, "github:owner/repo@v1.2", "v1.2", None),
        ("owner/repo@abc123", SourceKind.GITHUB, "github:owner/repo@abc123", "abc123", None),
        (
            "owner/repo:path/to/items",
            SourceKind.GITHUB,
            "github:owner/repo:path/to/items",
            None,
            "path/to/items",
        ),
        (
            "owner/repo@main:skills",
            SourceKind.GITHUB,
            "github:owner/repo@main:skills",
            "main",
            "skills",
        ),
        (
            "owner/repo:platform.bundle.yaml",
            SourceKind.GITHUB,
            "github:owner/repo:platform.bundle.yaml",
            None,
            "platform.bundle.yaml",
        ),
        ("https://github.com/owner/repo", SourceKind.GITHUB, "github:owner/repo", None, None),
        (
            "https://github.com/owner/repo.git@v2",
            SourceKind.GITHUB,
            "github:owner/repo@v2",
            "v2",
            None,
        ),
        (
            "https://gitlab.com/owner/repo",
            SourceKind.GIT,
            "https://gitlab.com/owner/repo",
            None,
            None,
        ),
        (
            "https://gitlab.com/group/subgroup/repo/",
            SourceKind.GIT,
            "https://gitlab.com/group/subgroup/repo",
            None,
            None,
        ),
        (
            "https://git.example.com/a/b/c/d.git@v1:skills/x",
            SourceKind.GIT,
            "https://git.example.com/a/b/c/d@v1:skills/x",
            "v1",
            "skills/x",
        ),
        (
            "git@github.com:owner/repo.git@v1:skills",
            SourceKind.GIT,
            "git@github.com:owner/repo.git@v1:skills",
            "v1",
            "skills",
        ),
        ("git@host.example:/srv/r", SourceKind.GIT, "git@host.example:/srv/r", None, None),
        (
            "ssh://git@host.example:2222/group/repo/@main",
            SourceKind.GIT,
            "ssh://git@host.example:2222/group/repo@main",
            "main",
            None,
        ),
        ("ssh://host.example/~u/r", SourceKind.GIT, "ssh://host.example/~u/r", None, None),
        (
            "file:///srv/git/repo.git:skills",
            SourceKind.GIT,
            "file:///srv/git/repo.git:skills",
            None,
            "skills",
        ),
        ("./local", SourceKind.LOCAL, "local:/work/proj/local", None, None),
        ("../up/reg", SourceKind.LOCAL, "local:/work/up/reg", None, None),
        ("/abs/reg", SourceKind.LOCAL, "local:/abs/reg", None, None),
        ("~", SourceKind.LOCAL, "local:/home/u", None, None),
        ("~/reg", SourceKind.LOCAL, "local:/home/u/reg", None, None),
    ],
)
def test_grammar(text, kind, label, ref, sub):
    spec = parse_source(text, cwd=CWD, home=HOME)
    assert (spec.kind, spec.label, spec.ref, spec.subpath) == (kind, label, ref, sub)
    assert parse_label(spec.label) == spec


def test_clone_urls():
    gh = parse_source("o/r@v1", cwd=CWD, home=HOME)
    assert gh.clone_url() == "https://github.com/o/r.git"
    assert gh.clone_url("file:///mirror") == "file:///mirror/o/r.git"
    git = parse_source("https://h.example/g/s/r", cwd=CWD, home=HOME)
    assert git.clone_url() == "https://h.example/g/s/r.git"
    # ssh, scp-like and file URLs reach git as typed: the path is the remote's own name.
    for url in ("git@h.example:g/r", "ssh://h.example/g/r.git", "file:///srv/r"):
        assert parse_source(f"{url}@v1:sub", cwd=CWD, home=HOME).clone_url() == url


def test_bundle_paths():
    assert parse_source("o/r:b/x.bundle.yaml", cwd=CWD, home=HOME).bundle_path == "b/x.bundle.yaml"
    assert parse_source("./x.bundle.yaml", cwd=CWD, home=HOME).bundle_path is not None
    assert parse_source("o/r:skills", cwd=CWD, home=HOME).bundle_path is None


@pytest.mark.parametrize("text", ["gitlab:org/repo", "gitlab+git.example.com:org/repo"])
def test_removed_gitlab_shorthand_is_usage_error(text):
    with pytest.raises(UsageError, match="removed") as info:
        parse_source(text, cwd=CWD, home=HOME)
    assert info.value.exit_code == 2


@pytest.mark.parametrize(
    "text",
    [
        "",
        "repo",
        "a/b/c",
        "owner/repo@",
        "owner/repo:",
        "owner/repo:../escape",
        "o w/repo",
        ".hidden/repo",
        "-owner/repo",
        "https://host",
        "https://user:pw@host/o/r",
        "http://host/o/r",
        "git://host/o/r",
        "https://github.com/a/b/c",
        "ssh://user:pw@host/o/r",
        "ssh://-oProxyCommand=x/o/r",
        "ssh://host",
        "ssh://host:port/o/r",
        "git@-oProxyCommand=x:o/r",
        "-u@host:o/r",
        "git@host:-o/r",
        "git@host:o/../r",
        "file://relative/r",
        "file:///srv/../r",
    ],
)
def test_invalid_sources(text):
    with pytest.raises(UsageError):
        parse_source(text, cwd=CWD, home=HOME)


@pytest.mark.parametrize(
    ("label", "canonical"),
    [
        ("gitlab:org/repo", "https://gitlab.com/org/repo"),
        ("gitlab:org/sub/repo@v1:skills", "https://gitlab.com/org/sub/repo@v1:skills"),
        (
            "gitlab+gitlab.example.com:org/team/repo:skills/team.bundle.yaml",
            "https://gitlab.example.com/org/team/repo:skills/team.bundle.yaml",
        ),
        (
            "gitlab+git.example.com:8443:org/team/repo@main",
            "https://git.example.com:8443/org/team/repo@main",
        ),
    ],
)
def test_historical_gitlab_labels_read_as_https(label, canonical):
    assert parse_label(label).label == canonical
    assert canonical_label(label) == canonical


@pytest.mark.parametrize(
    "label",
    [
        "gitlab:repo",
        "gitlab+:org/repo",
        "gitlab+bad host:org/repo",
        "gitlab+h:99999:o/r",
        "gitlab:org/../repo",
        "gitlab:org/repo@",
    ],
)
def test_ambiguous_historical_labels_get_guidance(label):
    with pytest.raises(SourceError, match="verify the https URL, ref and subfolder"):
        parse_label(label)


_part = st.text("abcdefghijklmnopqrstuvwxyz0123456789-_.", min_size=1, max_size=12).filter(
    lambda s: s not in (".", "..") and not s.endswith(".git")
)
_owner = _part.filter(lambda s: s[0].isalnum())  # GitHub owners begin with one


@settings(max_examples=150)
@given(
    owner=_owner,
    repo=_part,
    ref=st.none() | st.text("abcdef0123456789v.-_/", min_size=1, max_size=10),
    sub=st.none() | st.lists(_part, min_size=1, max_size=3).map("/".join),
)
def test_github_label_round_trip(owner, repo, ref, sub):
    text = f"{owner}/{repo}" + (f"@{ref}" if ref else "") + (f":{sub}" if sub else "")
    spec = parse_source(text, cwd=CWD, home=HOME)
    assert (spec.location, spec.ref, spec.subpath) == (f"{owner}/{repo}", ref, sub)
    assert parse_label(spec.label) == spec


def test_cli_gitlab_shorthand_exits_2(cli, project):
    out = cli.run("add", "gitlab:org/repo", cwd=project)
    assert out.returncode == 2
    assert "https://" in out.stderr
    assert not (project / ".upskill-lock.json").exists()


def test_local_labels_inside_the_project_are_relative():
    root = Path("/work/proj")
    inside = parse_source("./reg/x", cwd=CWD, home=HOME, anchor=root)
    assert inside.label == "local:./reg/x" and inside.location == "/work/proj/reg/x"
    assert parse_source(".", cwd=CWD, home=HOME, anchor=root).label == "local:."
    assert parse_source("../other", cwd=CWD, home=HOME, anchor=root).label == "local:/work/other"
    assert parse_source("./reg/x", cwd=CWD, home=HOME).label == "local:/work/proj/reg/x"
    # Read back against wherever the project is now; old absolute records still read.
    moved = parse_label("local:./reg/x", Path("/elsewhere/proj"))
    assert moved.location == "/elsewhere/proj/reg/x" and moved.label == "local:./reg/x"
    assert moved == parse_label("local:/elsewhere/proj/reg/x")
    assert parse_label("local:/work/proj/reg/x", root).label == "local:./reg/x"
    assert canonical_label("local:/work/proj/reg/x", root) == "local:./reg/x"
    assert parse_label("local:/work/other", root).label == "local:/work/other"
    for label in ("local:./reg/x", "local:reg", "local:./../up", "local:./a/../../up"):
        with pytest.raises(SourceError, match="relative local source"):
            parse_label(label, None if label == "local:./reg/x" else root)


def test_a_path_github_could_not_host_is_the_local_directory_it_names(tmp_path: Path) -> None:
    """`upskill add .upskill/registry` (where `upskill import` writes) or `registry`
    means the directory here; a valid owner/repo stays GitHub even when such a
    directory exists, since the shorthand must not change meaning with the cwd."""
    (tmp_path / ".upskill" / "registry").mkdir(parents=True)
    (tmp_path / "registry").mkdir()
    (tmp_path / "acme" / "skills").mkdir(parents=True)
    hidden = parse_source(".upskill/registry", cwd=tmp_path, home=HOME, anchor=tmp_path)
    assert (hidden.kind, hidden.label) == (SourceKind.LOCAL, "local:./.upskill/registry")
    plain = parse_source("registry", cwd=tmp_path, home=HOME)
    assert (plain.kind, plain.location) == (SourceKind.LOCAL, str(tmp_path / "registry"))
    assert parse_source("acme/skills", cwd=tmp_path, home=HOME).kind is SourceKind.GITHUB
    with pytest.raises(UsageError, match="expected owner/repo"):
        parse_source(".upskill/other", cwd=tmp_path, home=HOME)
