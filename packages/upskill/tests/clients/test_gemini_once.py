"""With Gemini CLI and Copilot CLI both selected, each sends every always-on rule to
the model exactly once, asked of the real clients offline (issue 15, items 3 and 4).

Copilot CLI reads a project's `GEMINI.md`, so upskill compiles Gemini's rules into
`.gemini/upskill.md` and `GEMINI.md` holds only `@.gemini/upskill.md`, which Gemini
follows and Copilot sends as the literal line. Checked beside VS Code (whose shared
`.github/instructions` copy Copilot reads too) and beside Codex (whose compiled
`AGENTS.md` Copilot reads instead of a copy of its own), in a project; and in the
global scope, where Gemini's rules are `~/.gemini/GEMINI.md`, which Copilot does not
read. Each client's first model request (`client_turns.py`) must show each rule's
heading once, and `upskill doctor` must list no rule as read twice.
"""

from __future__ import annotations

import json
import sys

import client_turns
import pytest
from client_probe import Install, install_bundle
from client_turns import compiled_headings, line_count, prompt_text, reached_once
from model_endpoint import Endpoint
from real_clients import Clients

pytestmark = pytest.mark.clients

CASES = {
    "vscode": ("project", ("gemini", "copilot", "vscode")),
    "codex": ("project", ("codex", "gemini", "copilot")),
    "global": ("global", ("gemini", "copilot", "vscode")),
}
IMPORT = "@.gemini/upskill.md"


@pytest.fixture(scope="module", params=sorted(CASES))
def installed(
    request: pytest.FixtureRequest, clients: Clients, tmp_path_factory: pytest.TempPathFactory
) -> Install:
    scope, ids = CASES[request.param]
    return install_bundle(clients, tmp_path_factory.mktemp(request.param), scope, ids)


def _compiled(at: Install) -> dict[str, str]:
    """Gemini's compiled rules, each with its heading: every always-on rule."""
    path = ".gemini/upskill.md" if at.scope == "project" else ".gemini/GEMINI.md"
    headings = compiled_headings(at.root / path)
    assert set(headings) == {r for r in at.rules if r != "acme-python-style"}
    return headings


def test_the_files(clients: Clients, installed: Install) -> None:
    _compiled(installed)
    if installed.scope == "project":
        assert (installed.root / "GEMINI.md").read_text() == IMPORT + "\n"
    doctor = clients.run(
        [sys.executable, "-m", "upskill", "doctor", "--json", *installed.flags],
        cwd=installed.cwd,
        env=installed.env,
    )
    report = json.loads(doctor.stdout)
    assert [d for d in report.get("duplicate_reads", ()) if d["kind"] == "rule"] == []


def test_gemini_sends_each_rule_once(
    clients: Clients, installed: Install, endpoint: Endpoint
) -> None:
    text = prompt_text(client_turns.gemini(clients, installed, endpoint))
    reached_once(text, _compiled(installed))
    if installed.scope == "project":  # GEMINI.md, with the import followed
        assert line_count(text, f"--- Context from: {installed.root / 'GEMINI.md'} ---") == 1
        assert line_count(text, f"<!-- Imported from: {IMPORT[1:]} -->") == 1
        assert line_count(text, IMPORT) == 0


def test_copilot_sends_each_rule_once(
    clients: Clients, installed: Install, endpoint: Endpoint
) -> None:
    text = prompt_text(client_turns.copilot(clients, installed, endpoint))
    reached_once(text, _compiled(installed))
    # Copilot reads the project's GEMINI.md and follows no import: the line as written.
    assert line_count(text, IMPORT) == (1 if installed.scope == "project" else 0)
