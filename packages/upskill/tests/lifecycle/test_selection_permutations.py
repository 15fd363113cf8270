"""A selection is a set: any order of the client flags gives byte-identical output, the
lines a run prints and the lockfile included (`desired.clients_for` works in registry
order). A lockfile recording its clients in another order (a hand merge) reads fine,
prints the same lines, and is not rewritten for the order alone."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from upskill_cli import Cli, snapshot, write_item

from upskill.clients import SELECTABLE_CLIENTS

# Items whose lines name clients: tools and a model some clients drop, a path-scoped
# rule that clients reading one instructions file cannot take, a skill rendered
# differently for Codex, and a kind several clients have no place for.
BIN = {"PATH": "/usr/bin:/bin"}


def _registry(root: Path) -> Path:
    write_item(root, "rule", "style", "Use four spaces.\n", paths=["'**/*.py'"])
    write_item(root, "rule", "commits", "Write imperative subjects.\n")
    write_item(root, "agent", "rev", "You review code.\n")
    write_item(
        root, "skill", "dx", "Common.\n\n<!-- @client:codex -->\nCodex.\n<!-- @endclient -->\n"
    )
    return root


def _run(cli: Cli, reg: Path, project: Path, flags: list[str]) -> tuple[object, ...]:
    """One `add` into a fresh project at the same path: what it printed and wrote."""
    shutil.rmtree(project, ignore_errors=True)
    (project / ".git").mkdir(parents=True)
    out = cli.run("add", str(reg), *flags, cwd=project, extra=BIN)
    tree = {p: data for p, (data, _, mode) in snapshot(project).items()}
    return out.returncode, out.stdout, out.stderr, tree


# `cli` is shared by the examples on purpose: its HOME holds only caches, and each run
# gets a fresh project at the same path, so the paths in its lines are the same.
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    chosen=st.lists(
        st.sampled_from(SELECTABLE_CLIENTS), unique=True, min_size=2, max_size=5
    ).flatmap(lambda c: st.tuples(st.just(c), st.permutations(c)))
)
def test_any_order_of_the_client_flags_gives_the_same_bytes(
    cli: Cli, tmp_path_factory, chosen: tuple[list[str], list[str]]
) -> None:  # type: ignore[no-untyped-def]
    base = tmp_path_factory.mktemp("perm")
    reg = _registry(base / "reg")
    canonical = [c for c in SELECTABLE_CLIENTS if c in chosen[0]]
    reference = _run(cli, reg, base / "project", [f"--{c}" for c in canonical])
    assert reference[0] == 0, reference[2]
    assert _run(cli, reg, base / "project", [f"--{c}" for c in chosen[1]]) == reference


def test_a_lockfile_in_another_order_prints_the_same_lines_and_is_kept(
    cli: Cli, tmp_path: Path
) -> None:
    reg = _registry(tmp_path / "reg")
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    cli.ok("add", str(reg), "--codex", "--gemini", "--windsurf", cwd=project, extra=BIN)
    forced = cli.ok("update", "--force", cwd=project, extra=BIN)
    lock_path = project / ".upskill-lock.json"
    lock = json.loads(lock_path.read_text())
    assert {i["name"]: i["clients"] for i in lock["items"]} == {
        "commits": ["codex", "gemini", "windsurf"],
        "style": ["codex", "gemini", "windsurf"],
        "dx": ["codex", "gemini", "windsurf"],
        "rev": ["codex", "gemini"],
    }
    for item in lock["items"]:
        item["clients"].reverse()  # a hand merge, say
    lock_path.write_text(json.dumps(lock, indent=2) + "\n")
    before = snapshot(project)
    # The full path (the lockfile changed under the fast path's feet) with nothing to do:
    # nothing is written, the reversed order included.
    quiet = cli.ok("update", cwd=project, extra=BIN)
    assert (quiet.stdout, quiet.stderr.splitlines()[-1]) == ("", "Already up to date.")
    assert snapshot(project) == before
    # Rendering everything again prints the lines in registry order, as after `add`, and
    # leaves the recorded order as it is: order alone never rewrites the lockfile.
    again = cli.ok("update", "--force", cwd=project, extra=BIN)
    assert (again.stdout, again.stderr) == (forced.stdout, forced.stderr)
    assert lock_path.read_bytes() == before[".upskill-lock.json"][0]
