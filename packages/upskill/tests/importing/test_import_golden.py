"""Golden import cases (conformance/upskill/import/<case>/), through the real CLI.

Each case is `clients/` (the client files of a project) and `expected/registry/` (what
`upskill import` writes) plus `expected/notes` (its warnings). The registry must pass
`upskill lint --strict` and be a fixed point of `upskill fmt`. For the round-trip cases
(every case but `handwritten`, whose files upskill itself rendered), `upskill add` of
the registry into an empty project must write every client file back byte for byte.
Set UPSKILL_UPDATE_GOLDEN=1 to regenerate the expected trees, then read the diff.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4] / "conformance" / "upskill" / "import"
CASES = sorted(p.name for p in ROOT.iterdir() if p.is_dir())
UPDATE = os.environ.get("UPSKILL_UPDATE_GOLDEN") == "1"
# The clients each round-trip case was rendered for (`all`: the five of the issue).
FLAGS = {
    "all": ["--claude", "--copilot", "--cursor", "--codex", "--opencode"],
    "handwritten": [],
}
# Client files `add` leaves out on purpose: in `all`, Cursor lists the agent from
# `.claude/agents` and `.codex/agents` already (lifecycle/agentplace.py), and the run
# says so in one line.
CURSOR_TWICE = (
    "warning: cursor: 2 agents (agent:planner, agent:reviewer) listed 2 times, from "
    ".claude/agents/, .codex/agents/ (Cursor reads .cursor/agents/, .claude/agents/, "
    ".codex/agents/ and is not known to show one copy per name)\n"
)
LEFT_OUT = {
    "all": {
        ".cursor/agents/planner.md": CURSOR_TWICE,
        ".cursor/agents/reviewer.md": CURSOR_TWICE,
    },
}


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(root).parts
    }


def write_tree(root: Path, files: dict[str, bytes]) -> None:
    shutil.rmtree(root, ignore_errors=True)
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)


@pytest.mark.parametrize("case", CASES)
def test_import_matches_golden_registry(case: str, cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    work = tmp_path / "work"
    shutil.copytree(ROOT / case / "clients", work)
    (work / ".git").mkdir()
    out = cli.run("import", cwd=work)
    assert out.returncode == 0, out.stderr
    registry = work / ".upskill" / "registry"
    got = tree(registry)
    notes = out.stderr.replace(str(work), "<project>")
    expected = ROOT / case / "expected"
    if UPDATE:
        write_tree(expected / "registry", got)
        (expected / "notes").write_text(notes)
    assert got == tree(expected / "registry")
    assert notes == (expected / "notes").read_text()
    lint = cli.run("lint", "--strict", str(registry), cwd=tmp_path)
    assert lint.returncode == 0, lint.stdout
    fmt = cli.run("fmt", "--check", str(registry), cwd=tmp_path)
    assert fmt.returncode == 0, fmt.stdout


@pytest.mark.parametrize("case", [c for c in CASES if c != "handwritten"])
def test_add_of_the_import_writes_the_client_files_back(case: str, cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    source = ROOT / case / "clients"
    empty = tmp_path / "empty"
    (empty / ".git").mkdir(parents=True)
    registry = ROOT / case / "expected" / "registry"
    flags = FLAGS.get(case, [f"--{case}"])
    out = cli.ok("add", str(registry), "imported", *flags, cwd=empty)
    written = tree(empty)
    left_out = LEFT_OUT.get(case, {})
    for rel, data in tree(source).items():
        if rel in left_out:
            assert rel not in written, rel
            assert left_out[rel] in out.stderr
        else:
            assert written.get(rel) == data, rel


def test_secret_values_never_reach_the_registry(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    work = tmp_path / "work"
    shutil.copytree(ROOT / "handwritten" / "clients", work)
    out = cli.ok("import", cwd=work)
    everything = (
        b"".join(tree(work / ".upskill").values()) + out.stdout.encode() + out.stderr.encode()
    )
    for secret in (b"ghp_FAKEFAKEFAKE", b"not-a-real-key", b"fake-bearer-value"):
        assert secret not in everything
