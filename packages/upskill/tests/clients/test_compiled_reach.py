"""The rules upskill compiles into a project's AGENTS.md reach every client that reads
AGENTS.md exactly once, asked of the real clients offline (issue 15, items 3 and 4).

With Codex selected, the always-on rules of the `acme-review` bundle are compiled into
the managed block of the team's own AGENTS.md. The other selected clients read that
file too, so a rule whose text is the same there gets no copy in their own trees
(`lifecycle/desired.py` served_by_compiled). Each client is pointed at the local model
endpoint (`client_turns.py`); its first request must show every compiled rule once, and
the team's own line once. A client that keeps its own copy of a rule (its text differs:
an `@client:` block or a passthrough field such as Copilot's `excludeAgent`) reads that
rule twice, and those rules are exactly what `upskill doctor` lists as duplicate reads
and what the install said it reads twice.
Project scope only: no client reads another client's user-level compiled file.
"""

from __future__ import annotations

import json
import sys

import client_turns
import pytest
from client_probe import AGENTS_MD, Install, install_bundle, said_twice
from client_turns import compiled_headings, line_count, prompt_text
from model_endpoint import Endpoint
from real_clients import Clients

from upskill.clients import get
from upskill.clients.base import RULE, Carrier

pytestmark = pytest.mark.clients

SERVED = ("opencode", "copilot", "qwen", "kilo", "cline", "augment", "continue")
# Factory Droid compiles into the same AGENTS.md as Codex: one block serves both.
READERS = (*SERVED, "factory")
BLOCK = AGENTS_MD + "\n<!-- upskill:begin -->\n<!-- upskill:end -->\n"
TEAM_LINE = "Run the tests before you commit."


@pytest.fixture(scope="module")
def installed(clients: Clients, tmp_path_factory: pytest.TempPathFactory) -> Install:
    base = tmp_path_factory.mktemp("compiled")
    return install_bundle(clients, base, "project", ("codex", *READERS), agents_md=BLOCK)


@pytest.fixture(scope="module")
def doubled(clients: Clients, installed: Install) -> dict[str, set[str]]:
    """What `upskill doctor --json` says each client reads twice: client -> rules."""
    done = clients.run(
        [sys.executable, "-m", "upskill", "doctor", "--json"], cwd=installed.cwd, env=installed.env
    )
    out: dict[str, set[str]] = {}
    for d in json.loads(done.stdout).get("duplicate_reads", ()):
        if d["kind"] == "rule":
            out.setdefault(d["client"], set()).add(d["name"])
    return out


@pytest.mark.parametrize("client", READERS)
def test_compiled_rules_reach_once(
    client: str,
    clients: Clients,
    installed: Install,
    endpoint: Endpoint,
    doubled: dict[str, set[str]],
) -> None:
    headings = compiled_headings(installed.cwd / "AGENTS.md")
    assert set(headings) == {r for r in installed.rules if r != "acme-python-style"}
    spec = get(client)
    compiles = spec.kinds[RULE].carrier is Carrier.COMPILED
    own = {
        r
        for r in headings
        if not compiles and (installed.root / str(spec.entrypoint(RULE, r, home=False))).exists()
    }
    assert own != set(headings)  # at least one rule reaches it only through AGENTS.md
    text = prompt_text(client_turns.TURNS[client](clients, installed, endpoint))
    assert line_count(text, TEAM_LINE) == 1
    seen = {r: line_count(text, h) for r, h in headings.items()}
    assert seen == {r: 2 if r in own else 1 for r in headings}
    assert own == doubled.get(client, set())
    assert own == said_twice(installed.stderr).get(client, set())
