"""A run that plans an item says its "not delivered" lines whether it renders the item
again or reuses its files: `update` repeats what `add` said for the clients with no
place for a kind (Windsurf and Crush agents), because the lockfile records the whole
selection: the clients an item was delivered to (`clients`) and the others
(`unplaced`)."""

from __future__ import annotations

import json

UNDELIVERED = (
    "warning: crush: 1 agent not delivered (Crush has no place for agents)\n"
    "warning: windsurf: 1 agent not delivered (Windsurf has no place for agents)\n"
)


def test_update_repeats_the_not_delivered_lines_add_said(cli, project, registry):  # type: ignore[no-untyped-def]
    added = cli.run("add", str(registry), "--claude", "--windsurf", "--crush", cwd=project)
    assert (added.returncode, added.stdout) == (0, "")
    assert added.stderr == (
        "rendering\nwriting\n" + UNDELIVERED + "4 items installed for claude, windsurf, crush\n"
    )
    lock = json.loads((project / ".upskill-lock.json").read_text())
    agent = next(i for i in lock["items"] if i["kind"] == "agent")
    assert agent["clients"] == ["claude"]  # delivered there only
    assert agent["unplaced"] == ["windsurf", "crush"]
    before = (project / ".upskill-lock.json").read_bytes()

    forced = cli.run("update", "--force", cwd=project)  # every item rendered again
    assert (forced.returncode, forced.stdout) == (0, "")
    assert forced.stderr == "rendering\nwriting\n" + UNDELIVERED + "Already up to date.\n"

    (registry / "skills" / "reviewer" / "AGENT.md").write_text(
        (registry / "skills" / "reviewer" / "AGENT.md").read_text() + "More.\n"
    )
    changed = cli.run("update", cwd=project)  # the agent rendered, the others reused
    assert (changed.returncode, changed.stdout) == (0, "")
    assert (
        changed.stderr == "rendering\nwriting\n" + UNDELIVERED + "1 item updated (1 file changed)\n"
    )
    after = json.loads((project / ".upskill-lock.json").read_text())
    assert next(i for i in after["items"] if i["kind"] == "agent")["clients"] == ["claude"]
    assert before != (project / ".upskill-lock.json").read_bytes()  # the agent's new hash


def test_an_item_installed_for_fewer_clients_is_not_told_for_the_ones_with_a_place(
    cli, project, registry
):  # type: ignore[no-untyped-def]
    """Update weighs each item against its own selection: a rule installed for Claude
    alone is not said to miss Crush, which has a place for rules."""
    cli.ok("add", str(registry), "style", "--claude", cwd=project)
    cli.ok("add", str(registry), "reviewer", "--crush", "--claude", cwd=project)
    forced = cli.run("update", "--force", cwd=project)
    assert (forced.returncode, forced.stdout) == (0, "")
    assert forced.stderr == (
        "rendering\nwriting\n"
        "warning: crush: 1 agent not delivered (Crush has no place for agents)\n"
        "Already up to date.\n"
    )


def test_an_agent_installed_without_a_client_is_not_told_it_misses_it(cli, project, registry):  # type: ignore[no-untyped-def]
    """Windsurf is used in the scope (for a rule), but the agent was added for Claude
    alone: update never says Windsurf has no place for it, as add never did."""
    cli.ok("add", str(registry), "style", "--windsurf", cwd=project)
    added = cli.run("add", str(registry), "reviewer", "--claude", cwd=project)
    assert "not delivered" not in added.stderr
    forced = cli.run("update", "--force", cwd=project)
    assert (forced.returncode, forced.stderr) == (0, "rendering\nwriting\nAlready up to date.\n")


def test_a_lockfile_from_before_unplaced_was_recorded_updates_quietly(cli, project, registry):  # type: ignore[no-untyped-def]
    """Without `unplaced` the clients left out are not known: the update delivers what
    it did, says nothing of them, and records nothing new (the lines come back with the
    next `add` that selects them)."""
    cli.ok("add", str(registry), "--claude", "--windsurf", cwd=project)
    path = project / ".upskill-lock.json"
    lock = json.loads(path.read_text())
    for item in lock["items"]:
        item.pop("unplaced", None)
    path.write_text(json.dumps(lock, indent=2) + "\n")
    forced = cli.run("update", "--force", cwd=project)
    assert (forced.returncode, forced.stderr) == (0, "rendering\nwriting\nAlready up to date.\n")


def test_a_malformed_unplaced_field_is_one_error_naming_the_lockfile(cli, project, registry):  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), "reviewer", "--claude", "--windsurf", cwd=project)
    path = project / ".upskill-lock.json"
    lock = json.loads(path.read_text())
    next(i for i in lock["items"] if i["kind"] == "agent")["unplaced"] = "windsurf"
    path.write_text(json.dumps(lock, indent=2) + "\n")
    before = path.read_bytes()
    out = cli.run("update", cwd=project)
    assert out.returncode == 1
    assert out.stderr.splitlines()[-1] == (
        f"upskill: error: {path}: malformed lockfile: `items` entry field `unplaced` must be "
        "an array of strings"
    )
    assert path.read_bytes() == before


def test_an_unknown_recorded_client_is_one_error_naming_the_lockfile(cli, project, registry):  # type: ignore[no-untyped-def]
    """A hand merge, or a newer upskill with more clients: the run says which file and
    item, exit 1 (a malformed lockfile), never a usage error, and writes nothing."""
    cli.ok("add", str(registry), "reviewer", "--claude", "--windsurf", cwd=project)
    path = project / ".upskill-lock.json"
    lock = json.loads(path.read_text())
    agent = next(i for i in lock["items"] if i["kind"] == "agent")
    agent["unplaced"] = ["warp"]
    path.write_text(json.dumps(lock, indent=2) + "\n")
    before = path.read_bytes()
    out = cli.run("update", cwd=project)
    assert out.returncode == 1
    assert out.stderr.splitlines()[-1].startswith(
        f"upskill: error: {path}: malformed lockfile: `items` entry agent:{agent['name']}: "
        "field `unplaced` names unknown client 'warp' (expected one of: claude, copilot, "
    )
    assert path.read_bytes() == before
