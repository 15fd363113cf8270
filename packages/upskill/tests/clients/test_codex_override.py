"""With Codex and Copilot CLI both selected and no team AGENTS.md, each sends every
always-on rule to the model exactly once, in its own text, asked of the real clients
offline (issue 15, items 3 and 4).

Two rules of the `acme-review` bundle read differently for Copilot (a `copilot:`
passthrough block, a `<!-- @client:copilot -->` block), so Copilot keeps its own
`.github/instructions` copy of them. Codex 0.171.0 reads `AGENTS.override.md` instead
of `AGENTS.md` in the same directory, and Copilot CLI 1.0.102 reads `AGENTS.md` but
not the override: upskill compiles every Codex rule into `AGENTS.override.md`, and
`AGENTS.md` keeps only the rules whose text Copilot shares, for Copilot. Codex's
prompt (`codex debug prompt-input`) and Copilot's first model request
(`client_turns.py`) must each show every rule's heading once, Copilot's two own rules
in Copilot's text; the install says nothing is read twice and `doctor` lists nothing.
The same with every other client reading AGENTS.md that has a turn here selected too:
none reads the override, and each sends every rule once.

Also here: a `CLAUDE.md` holding `@AGENTS.md` has Copilot CLI send `AGENTS.md` twice
(it reads the file, and expands the import), the case `doctor` lists as a file read
twice.
"""

from __future__ import annotations

import json
import sys

import client_turns
import pytest
from client_probe import AGENTS_MD, Install, ask, install_bundle
from client_turns import compiled_headings, line_count, prompt_text
from model_endpoint import Endpoint
from real_clients import Clients

from upskill.render.compiled import parse_sections

pytestmark = pytest.mark.clients

TEAM_LINE = "Run the tests before you commit."
# The line only Copilot's text of acme-secrets-hygiene has (examples/registry).
COPILOT_ONLY = (
    "For GitHub Copilot, repository administrators can add `.env` files to the repository's "
    "content exclusion settings so they never reach the model; suggest it when secrets "
    "files live in the repository."
)


@pytest.fixture(scope="module")
def installed(clients: Clients, tmp_path_factory: pytest.TempPathFactory) -> Install:
    base = tmp_path_factory.mktemp("override")
    return install_bundle(clients, base, "project", ("codex", "copilot"), agents_md=None)


def _doctor(clients: Clients, at: Install) -> dict:  # type: ignore[type-arg]
    done = clients.run(
        [sys.executable, "-m", "upskill", "doctor", "--json"], cwd=at.cwd, env=at.env
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def _own(at: Install) -> set[str]:
    """The rules Copilot has its own copy of."""
    return {p.name.split(".")[0] for p in (at.root / ".github/instructions").glob("*.md")}


def test_the_files(clients: Clients, installed: Install) -> None:
    headings = compiled_headings(installed.root / "AGENTS.override.md")
    always = {r for r in installed.rules if r != "acme-python-style"}
    assert set(headings) == always  # every Codex rule
    shared = set(parse_sections((installed.root / "AGENTS.md").read_bytes()) or ())
    own = _own(installed) - {"acme-python-style"}
    assert own == {"acme-commit-messages", "acme-secrets-hygiene"}
    assert shared == always - own  # Copilot's text, kept for it
    assert "read twice" not in installed.stderr
    report = _doctor(clients, installed)
    assert report["duplicate_reads"] == [] and report["hidden_instructions"] == []


def test_codex_sends_each_rule_once(clients: Clients, installed: Install) -> None:
    headings = compiled_headings(installed.root / "AGENTS.override.md")
    prompt = ask(clients, installed, "codex", "debug", "prompt-input").replace("\\n", "\n")
    assert {r: line_count(prompt, h) for r, h in headings.items()} == dict.fromkeys(headings, 1)
    assert line_count(prompt, COPILOT_ONLY) == 0


def test_copilot_sends_each_rule_once(
    clients: Clients, installed: Install, endpoint: Endpoint
) -> None:
    headings = compiled_headings(installed.root / "AGENTS.override.md")
    text = prompt_text(client_turns.copilot(clients, installed, endpoint))
    assert {r: line_count(text, h) for r, h in headings.items()} == dict.fromkeys(headings, 1)
    assert line_count(text, COPILOT_ONLY) == 1  # its own text of the rule, once


# Every other client reading AGENTS.md that has a turn here (Droid compiles into AGENTS.md
# itself: beside it the override would remove no second read, so it is not written).
READERS = ("opencode", "copilot", "qwen", "kilo", "cline", "augment", "continue")


@pytest.fixture(scope="module")
def beside_readers(clients: Clients, tmp_path_factory: pytest.TempPathFactory) -> Install:
    base = tmp_path_factory.mktemp("readers")
    return install_bundle(clients, base, "project", ("codex", *READERS), agents_md=None)


@pytest.mark.parametrize("client", ("codex", *READERS))
def test_every_reader_sends_each_rule_once(
    client: str, clients: Clients, beside_readers: Install, endpoint: Endpoint
) -> None:
    """None of them reads the override; each reads each rule once, in AGENTS.md (the
    rules every reader shares) or in its own copy (the two Copilot's text differs in,
    where AGENTS.md keeps nothing, so no reader gets them twice)."""
    at = beside_readers
    headings = compiled_headings(at.root / "AGENTS.override.md")
    shared = set(parse_sections((at.root / "AGENTS.md").read_bytes()) or ())
    assert shared == set(headings) - {"acme-commit-messages", "acme-secrets-hygiene"}
    if client == "codex":
        text = ask(clients, at, "codex", "debug", "prompt-input").replace("\\n", "\n")
    else:
        text = prompt_text(client_turns.TURNS[client](clients, at, endpoint))
    assert {r: line_count(text, h) for r, h in headings.items()} == dict.fromkeys(headings, 1)
    assert line_count(text, COPILOT_ONLY) == (1 if client == "copilot" else 0)
    assert "read twice" not in at.stderr


def test_copilot_sends_agents_md_twice_through_claude_md(
    clients: Clients, tmp_path_factory: pytest.TempPathFactory, endpoint: Endpoint
) -> None:
    base = tmp_path_factory.mktemp("imports")
    at = install_bundle(clients, base, "project", ("copilot",), files={"CLAUDE.md": "@AGENTS.md\n"})
    assert (at.root / "AGENTS.md").read_text() == AGENTS_MD
    text = prompt_text(client_turns.copilot(clients, at, endpoint))
    assert line_count(text, TEAM_LINE) == 2
    assert [d for d in _doctor(clients, at)["duplicate_reads"] if d["kind"] == "file"] == [
        {
            "client": "copilot",
            "kind": "file",
            "name": "AGENTS.md",
            "trees": ["AGENTS.md", "CLAUDE.md"],
        }
    ]
