"""A run that plans an item says its "not delivered" lines whether it renders the item
again or reuses its files: `update` repeats what `add` said for the clients with no
place for a kind (Windsurf and Crush agents), though the lockfile records only the
clients an item was delivered to."""

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
    assert agent["clients"] == ["claude"]  # delivered there only; nothing recorded else
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
    """Only a client with no place for the kind is added to what update weighs: a rule
    installed for Claude alone is not said to miss Crush, which has a place for rules."""
    cli.ok("add", str(registry), "style", "--claude", cwd=project)
    cli.ok("add", str(registry), "reviewer", "--crush", "--claude", cwd=project)
    forced = cli.run("update", "--force", cwd=project)
    assert (forced.returncode, forced.stdout) == (0, "")
    assert forced.stderr == (
        "rendering\nwriting\n"
        "warning: crush: 1 agent not delivered (Crush has no place for agents)\n"
        "Already up to date.\n"
    )
