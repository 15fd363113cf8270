"""upskill owns the extra files it creates (`CLAUDE.md`, `opencode.json`, VS Code's
settings, opencode's user config) the way it owns an output: the lockfile's `edits`
record says it created the file and what it put there, so removing everything gives
back the exact tree from before `add`, a team's file keeps its bytes, and a file upskill
created that was edited since is kept and reported (`lifecycle.edits`)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from upskill_cli import Cli, _cli

CLIENTS = ("--claude", "--copilot", "--vscode", "--opencode")
NAMES = ("style", "commits", "review", "reviewer")
OURS = {".upskill-lock.json", ".upskill"}  # upskill's own state in the scope
TEAM_CLAUDE = b"# Ours\n\n@AGENTS.md\n"
TEAM_OPENCODE = b'{\n  // ours\n  "model": "x",\n  "instructions": ["docs/*.md"],\n}\n'


def tree(root: Path, skip: frozenset[str] = frozenset()) -> dict[str, bytes | None]:
    """Every file (its bytes) and directory (None) under `root`, but `.git` and upskill's
    own state, and `skip` (paths relative to `root`)."""
    out: dict[str, bytes | None] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        dirnames[:] = [
            d
            for d in dirnames
            if d != ".git" and (here / d).relative_to(root).as_posix() not in skip
        ]
        if here == root:
            dirnames[:] = [d for d in dirnames if d not in OURS]
        for name in dirnames:
            out[(here / name).relative_to(root).as_posix()] = None
        for name in filenames:
            rel = (here / name).relative_to(root).as_posix()
            if not (here == root and name in OURS) and rel not in skip:
                out[rel] = (here / name).read_bytes()
    return out


def _edits(project: Path) -> list[dict[str, object]]:
    return json.loads((project / ".upskill-lock.json").read_text()).get("edits", [])


def test_add_then_remove_gives_back_the_tree(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    (project / "AGENTS.md").write_bytes(b"# Team\n")
    before = tree(project)
    cli.ok("add", str(registry), *CLIENTS, cwd=project)
    assert (project / "CLAUDE.md").read_bytes() == b"@AGENTS.md\n"
    assert (project / "opencode.json").is_file() and (project / ".vscode/settings.json").is_file()
    edits = {e["path"]: e for e in _edits(project)}
    assert edits["CLAUDE.md"]["created"] is True
    assert edits["CLAUDE.md"]["listed"] == [["lines", "@AGENTS.md"]]
    assert edits["opencode.json"]["listed"] == [["instructions", ".agents/rules/**/RULE.md"]]
    out = cli.ok("remove", "-y", "--source", f"local:{registry}", cwd=project)
    assert out.stderr.splitlines() == [
        "removed .vscode/settings.json: took back "
        '"chat.instructionsFilesLocations": {".github/instructions": true}, '
        '"chat.agentFilesLocations": {".claude/agents": false}',
        "removed CLAUDE.md",
        'removed opencode.json: took back "instructions": [".agents/rules/**/RULE.md"]',
        "4 items removed",
    ]
    assert tree(project) == before
    assert _edits(project) == []


def test_team_files_keep_their_bytes(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    (project / "AGENTS.md").write_bytes(b"# Team\n")
    (project / "CLAUDE.md").write_bytes(TEAM_CLAUDE)
    (project / "opencode.json").write_bytes(TEAM_OPENCODE)
    before = tree(project)
    cli.ok("add", str(registry), *CLIENTS, cwd=project)
    assert (project / "CLAUDE.md").read_bytes() == TEAM_CLAUDE
    assert (project / "opencode.json").read_bytes() == (
        b'{\n  // ours\n  "model": "x",\n  "instructions": ["docs/*.md", '
        b'".agents/rules/**/RULE.md"],\n}\n'
    )
    cli.ok("update", "--claude", cwd=project)  # opencode deselected: its member goes
    assert (project / "opencode.json").read_bytes() == TEAM_OPENCODE
    cli.ok("update", *CLIENTS, cwd=project)
    out = cli.ok("remove", "-y", "--source", f"local:{registry}", cwd=project)
    assert 'updated opencode.json: took back "instructions": [".agents/rules/**/RULE.md"]' in (
        out.stderr.splitlines()
    )
    assert "CLAUDE.md" not in out.stderr
    assert tree(project) == before


def test_a_team_entry_upskill_would_add_is_never_taken_back(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    team = b'{"instructions": [".agents/rules/**/RULE.md"]}\n'
    (project / "opencode.json").write_bytes(team)
    cli.ok("add", str(registry), "--opencode", cwd=project)
    cli.ok("remove", "style", "commits", cwd=project)
    assert (project / "opencode.json").read_bytes() == team


def test_an_edited_claude_md_upskill_created_is_kept_and_reported(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    (project / "AGENTS.md").write_bytes(b"# Team\n")
    cli.ok("add", str(registry), "--claude", cwd=project)
    edited = b"@AGENTS.md\n\n# Our notes\n"
    (project / "CLAUDE.md").write_bytes(edited)
    dry = cli.run("remove", "-y", "--source", f"local:{registry}", "-n", cwd=project)
    assert dry.returncode == 0
    assert dry.stdout.splitlines()[-1] == "  keep-edited-orphan CLAUDE.md"
    out = cli.run("remove", "-y", "--source", f"local:{registry}", cwd=project)
    assert (out.returncode, out.stdout) == (0, "")
    assert out.stderr.splitlines() == [
        "kept edited file that is no longer installed: CLAUDE.md",
        "4 items removed; 1 kept local edit",
    ]
    assert (project / "CLAUDE.md").read_bytes() == edited
    assert _edits(project) == []  # the team's now: a later run never touches it
    cli.ok("add", str(registry), "--claude", cwd=project)
    out = cli.ok("remove", "-y", "--source", f"local:{registry}", cwd=project)
    assert "CLAUDE.md" not in out.stderr
    assert (project / "CLAUDE.md").read_bytes() == edited


def test_an_edited_opencode_json_upskill_created(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    """A member the user added stays, and only upskill's entry is taken back; a file only
    reformatted (nothing but upskill's entry in it) is removed."""
    cli.ok("add", str(registry), "--opencode", cwd=project)
    config = project / "opencode.json"
    config.write_bytes(config.read_bytes().replace(b"{\n", b'{\n  "model": "x",\n', 1))
    out = cli.ok("remove", "style", "commits", cwd=project)
    assert out.stderr.splitlines()[0] == (
        'updated opencode.json: took back "instructions": [".agents/rules/**/RULE.md"]'
    )
    assert config.read_bytes() == b'{\n  "model": "x",\n  "instructions": []\n}\n'
    config.unlink()
    cli.ok("add", str(registry), "--opencode", cwd=project)
    config.write_bytes(b'{"instructions": [".agents/rules/**/RULE.md"]}')
    out = cli.ok("remove", "style", "commits", cwd=project)
    assert out.stderr.splitlines()[0] == (
        'removed opencode.json: took back "instructions": [".agents/rules/**/RULE.md"]'
    )
    assert not config.exists()


def test_global_opencode_config_goes_with_its_last_rule(cli, tmp_path, registry) -> None:  # type: ignore[no-untyped-def]
    skip = frozenset({".cache", ".local"})  # the clone cache and upskill's state
    before = tree(cli.home, skip)
    cli.ok("add", "-g", str(registry), "--opencode", "--claude", cwd=tmp_path)
    assert (cli.home / ".config/opencode/opencode.json").is_file()
    out = cli.ok("remove", "-g", "-y", "--source", f"local:{registry}", cwd=tmp_path)
    assert out.stderr.splitlines()[0] == (
        "removed .config/opencode/opencode.json: took back "
        '"instructions": ["~/.agents/rules/commits/RULE.md", "~/.agents/rules/style/RULE.md"]'
    )
    assert tree(cli.home, skip) == before


def test_global_team_config_keeps_its_bytes(cli, tmp_path, registry) -> None:  # type: ignore[no-untyped-def]
    config = cli.home / ".config/opencode/opencode.json"
    config.parent.mkdir(parents=True)
    config.write_bytes(TEAM_OPENCODE)
    cli.ok("add", "-g", str(registry), "--opencode", cwd=tmp_path)
    cli.ok("remove", "-g", "style", cwd=tmp_path)
    cli.ok("remove", "-g", "-y", "--source", f"local:{registry}", cwd=tmp_path)
    assert config.read_bytes() == TEAM_OPENCODE


def test_a_lockfile_without_the_record_behaves_as_before(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    """An older lockfile records no edit for opencode.json or CLAUDE.md: the rule glob is
    taken back as it always was, the file and CLAUDE.md stay."""
    (project / "AGENTS.md").write_bytes(b"# Team\n")
    cli.ok("add", str(registry), "--claude", "--opencode", cwd=project)
    lock = project / ".upskill-lock.json"
    data = json.loads(lock.read_text())
    del data["edits"]
    lock.write_text(json.dumps(data, indent=2) + "\n")
    cli.ok("update", cwd=project)  # the glob is upskill's, of bytes it never recorded
    assert _edits(project) == [
        {
            "path": "opencode.json",
            "sha256": "unseen",
            "at": 0,
            "length": 0,
            "was": "",
            "members": [],
            "listed": [["instructions", ".agents/rules/**/RULE.md"]],
        }
    ]
    cli.ok("remove", "-y", "--source", f"local:{registry}", cwd=project)
    assert json.loads((project / "opencode.json").read_text()) == {"instructions": []}
    assert (project / "CLAUDE.md").read_bytes() == b"@AGENTS.md\n"


def _installed(project: Path) -> list[str]:
    lock = project / ".upskill-lock.json"
    return [i["name"] for i in json.loads(lock.read_text())["items"]] if lock.exists() else []


STEP = st.one_of(
    st.tuples(st.just("add"), st.sets(st.sampled_from(CLIENTS), min_size=1)),
    st.tuples(st.just("update"), st.sets(st.sampled_from(CLIENTS), min_size=1)),
    st.tuples(st.just("remove"), st.sets(st.sampled_from(NAMES), min_size=1)),
)
TEAM_FILE = st.sampled_from([None, TEAM_OPENCODE, b"{}\n"])
PROJECT = st.fixed_dictionaries(
    {
        "AGENTS.md": st.sampled_from([None, b"# Team\n"]),
        "CLAUDE.md": st.sampled_from([None, TEAM_CLAUDE]),
        "opencode.json": TEAM_FILE,
    }
)
HOME = st.fixed_dictionaries({".config/opencode/opencode.json": TEAM_FILE})
SKIP = frozenset({".cache", ".local"})  # in HOME: the clone cache and upskill's state


def _replay(
    registry: Path, start: dict[str, bytes | None], steps: list[tuple[str, set[str]]], home: bool
) -> None:
    """Apply `steps` from the tree `start`, remove what is left, compare the trees."""
    with tempfile.TemporaryDirectory() as tmp:
        cli: Cli = _cli(Path(tmp), black_box=False)
        root = cli.home if home else Path(tmp) / "project"
        cwd = Path(tmp) if home else root
        scope = ("-g",) if home else ()
        if not home:
            (root / ".git").mkdir(parents=True)
        for name, data in start.items():
            if data is not None:
                (root / name).parent.mkdir(parents=True, exist_ok=True)
                (root / name).write_bytes(data)
        before = tree(root, SKIP)
        for verb, chosen in steps:
            installed = set(_installed(root))
            if verb == "add":
                cli.ok("add", *scope, str(registry), *sorted(chosen), cwd=cwd)
            elif verb == "update" and installed:
                cli.ok("update", *scope, *sorted(chosen), cwd=cwd)
            elif verb == "remove" and chosen & installed:
                cli.ok("remove", *scope, *sorted(chosen & installed), cwd=cwd)
        if _installed(root):
            cli.ok("remove", *scope, "-y", "--source", f"local:{registry}", cwd=cwd)
        assert tree(root, SKIP) == before


PROPERTY = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@PROPERTY
@given(start=PROJECT, steps=st.lists(STEP, max_size=5))
def test_removing_everything_gives_back_the_starting_tree(registry, start, steps) -> None:  # type: ignore[no-untyped-def]
    _replay(registry, start, steps, home=False)


@PROPERTY
@given(start=HOME, steps=st.lists(STEP, max_size=5))
def test_removing_everything_gives_back_the_starting_home(registry, start, steps) -> None:  # type: ignore[no-untyped-def]
    _replay(registry, start, steps, home=True)
