"""With Gemini CLI and Copilot CLI both selected, each sends every always-on rule to
the model exactly once, asked of the real clients offline (issue 15, items 3 and 4).

Copilot CLI reads a project's `GEMINI.md`, so upskill compiles Gemini's rules into
`.gemini/upskill.md` and `GEMINI.md` holds only `@.gemini/upskill.md`, which Gemini
follows and Copilot sends as the literal line. Checked beside VS Code (whose shared
`.github/instructions` copy Copilot reads too) and beside Codex (whose compiled
`AGENTS.md` Copilot reads instead of a copy of its own), in a project, also with
Gemini told to read `AGENTS.md` (`context.fileName`), where it is served by the
block upskill compiles there; with those settings (or `AGENTS.md` alone: Gemini
0.61.0 reads its `GEMINI.md` whatever the list says) and an `AGENTS.md` upskill owns,
where Codex's rules move to `AGENTS.override.md` and Gemini reads each rule in
`AGENTS.md` or its own `GEMINI.md` (`lifecycle.override`, checked with Codex's
`debug prompt-input` too); and in the global scope, where Gemini's rules are
`~/.gemini/GEMINI.md`, which Copilot does not read. Each client's first model
request (`client_turns.py`) must show each rule's heading once. The one exception is
Codex's, not Gemini's: a rule whose text differs for Copilot (a `copilot:` block) keeps
Copilot's own copy beside the compiled `AGENTS.md` Copilot also reads. No placement
avoids it: Codex 0.171.0 reads rules only from `AGENTS.md`, or from an
`AGENTS.override.md` it reads instead (hiding the team's `AGENTS.md`), and Copilot CLI
1.0.102 reads `AGENTS.md` (not `AGENTS.override.md`). Those rules are exactly what the
install says Copilot reads twice and what `upskill doctor` lists (test_compiled_reach.py).
"""

from __future__ import annotations

import json
import sys

import client_turns
import pytest
from client_probe import AGENTS_MD, Install, install_bundle, said_twice
from client_turns import compiled_headings, line_count, prompt_text, reached_once
from model_endpoint import Endpoint
from real_clients import Clients

from upskill.lifecycle.compiled import split_block
from upskill.render.compiled import parse_sections

pytestmark = pytest.mark.clients

# A team that keeps its instructions in AGENTS.md points Gemini at it (`context.fileName`)
# and lets upskill manage a block there: Gemini then reads the rules in that block.
SETTINGS = '{"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}}\n'
BLOCK = AGENTS_MD + "\n<!-- upskill:begin -->\n<!-- upskill:end -->\n"
CASES = {
    "vscode": ("project", ("gemini", "copilot", "vscode")),
    "codex": ("project", ("codex", "gemini", "copilot")),  # AGENTS.md with a block
    "configured": ("project", ("codex", "gemini", "copilot")),  # and settings naming it
    # Settings naming AGENTS.md and GEMINI.md, and no team AGENTS.md: Codex's rules move to
    # AGENTS.override.md, and Gemini reads each rule in AGENTS.md or its own GEMINI.md.
    "moved": ("project", ("codex", "gemini", "copilot")),
    # The same with settings naming AGENTS.md alone: Gemini 0.61.0 reads GEMINI.md anyway.
    "moved-alone": ("project", ("codex", "gemini", "copilot")),
    "global": ("global", ("gemini", "copilot", "vscode")),
}
IMPORT = "@.gemini/upskill.md"
ALONE = '{"context": {"fileName": "AGENTS.md"}}\n'


@pytest.fixture(scope="module", params=sorted(CASES))
def installed(
    request: pytest.FixtureRequest, clients: Clients, tmp_path_factory: pytest.TempPathFactory
) -> Install:
    scope, ids = CASES[request.param]
    base = tmp_path_factory.mktemp(request.param)
    if request.param.startswith("moved"):
        files = {".gemini/settings.json": ALONE if request.param == "moved-alone" else SETTINGS}
        at = install_bundle(clients, base, scope, ids, agents_md=None, files=files)
        assert _moved(at)
        return at
    if request.param in ("codex", "configured"):
        files = {".gemini/settings.json": SETTINGS} if request.param == "configured" else {}
        return install_bundle(clients, base, scope, ids, agents_md=BLOCK, files=files)
    return install_bundle(clients, base, scope, ids)


def _twice(at: Install) -> set[str]:
    """The rules Copilot reads in its own tree and in the AGENTS.md block."""
    if at.scope != "project":
        return set()
    if not (at.root / "AGENTS.md").is_file():
        return set()
    block = split_block((at.root / "AGENTS.md").read_bytes())
    compiled = set(parse_sections(block.content) or ()) if block is not None else set()
    own = {p.name.split(".")[0] for p in (at.root / ".github/instructions").glob("*.md")}
    return own & compiled


def _configured(at: Install) -> bool:
    """Whether the project's settings point Gemini at AGENTS.md."""
    settings = at.root / ".gemini/settings.json"
    if at.scope != "project" or not settings.is_file():
        return False
    return "context" in json.loads(settings.read_text())


def _moved(at: Install) -> bool:
    """Whether Codex reads its rules from AGENTS.override.md."""
    return at.scope == "project" and (at.root / "AGENTS.override.md").is_file()


def _compiled(at: Install) -> dict[str, str]:
    """The rules Gemini reads, each with its heading: every always-on rule, in its own
    file, or in the AGENTS.md (block) it is configured to read, each in one of them."""
    if at.scope != "project":
        paths = [".gemini/GEMINI.md"]
    elif _configured(at):
        paths = ["AGENTS.md", ".gemini/upskill.md"]
    else:
        paths = [".gemini/upskill.md"]
    headings: dict[str, str] = {}
    for path in paths:
        if (at.root / path).is_file():
            found = compiled_headings(at.root / path)
            assert not set(found) & set(headings), path  # no rule in two files Gemini reads
            headings.update(found)
    assert set(headings) == {r for r in at.rules if r != "acme-python-style"}
    return headings


def test_the_files(clients: Clients, installed: Install) -> None:
    _compiled(installed)
    if _moved(installed):  # Codex left AGENTS.md: Gemini has its own file for the rest
        assert (installed.root / "GEMINI.md").read_text() == IMPORT + "\n"
        settings = json.loads((installed.root / ".gemini/settings.json").read_text())
        assert settings["context"] in ({"fileName": "AGENTS.md"}, json.loads(SETTINGS)["context"])
    elif _configured(installed):  # served by AGENTS.md: nothing of Gemini's own
        assert not (installed.root / "GEMINI.md").exists()
        assert not (installed.root / ".gemini/upskill.md").exists()
        settings = json.loads((installed.root / ".gemini/settings.json").read_text())
        assert settings["context"] == json.loads(SETTINGS)["context"]  # never rewritten
    elif installed.scope == "project":
        assert (installed.root / "GEMINI.md").read_text() == IMPORT + "\n"
    doctor = clients.run(
        [sys.executable, "-m", "upskill", "doctor", "--json", *installed.flags],
        cwd=installed.cwd,
        env=installed.env,
    )
    report = json.loads(doctor.stdout)
    rules = [d for d in report.get("duplicate_reads", ()) if d["kind"] == "rule"]
    assert {d["client"] for d in rules} <= {"copilot"}
    assert {d["name"] for d in rules} == _twice(installed)
    said = said_twice(installed.stderr)
    assert said == ({"copilot": _twice(installed)} if _twice(installed) else {})


def test_gemini_sends_each_rule_once(
    clients: Clients, installed: Install, endpoint: Endpoint
) -> None:
    text = prompt_text(client_turns.gemini(clients, installed, endpoint))
    reached_once(text, _compiled(installed))
    if installed.scope == "project" and (_moved(installed) or not _configured(installed)):
        assert line_count(text, f"--- Context from: {installed.root / 'GEMINI.md'} ---") == 1
        assert line_count(text, f"<!-- Imported from: {IMPORT[1:]} -->") == 1
        assert line_count(text, IMPORT) == 0
    # Gemini reads the team's AGENTS.md only when its settings name the file.
    team = _configured(installed) and not _moved(installed)
    assert line_count(text, AGENTS_MD.splitlines()[-1]) == (1 if team else 0)


def test_copilot_sends_each_rule_once(
    clients: Clients, installed: Install, endpoint: Endpoint
) -> None:
    text = prompt_text(client_turns.copilot(clients, installed, endpoint))
    headings, twice = _compiled(installed), _twice(installed)
    seen = {r: line_count(text, h) for r, h in headings.items()}
    assert seen == {r: 2 if r in twice else 1 for r in headings}
    # Copilot reads the project's GEMINI.md and follows no import: the line as written.
    imports = installed.scope == "project" and (_moved(installed) or not _configured(installed))
    assert line_count(text, IMPORT) == (1 if imports else 0)


def test_codex_sends_each_rule_once(clients: Clients, installed: Install) -> None:
    """Codex reads its rules from AGENTS.override.md where they moved, and not AGENTS.md
    beside it (a rule in both would show twice); else from AGENTS.md."""
    lock = json.loads((installed.root / ".upskill-lock.json").read_text())
    if not any("codex" in item["clients"] for item in lock["items"]):
        pytest.skip("Codex is not selected in this case")
    done = clients.run(["codex", "debug", "prompt-input"], cwd=installed.cwd, env=installed.env)
    assert done.returncode == 0, done.stderr
    text = done.stdout.replace("\\n", "\n")
    path = "AGENTS.override.md" if _moved(installed) else "AGENTS.md"
    headings = compiled_headings(installed.root / path)
    assert set(headings) == {r for r in installed.rules if r != "acme-python-style"}
    reached_once(text, headings)
