"""Claude Code beside Codex, with a team `CLAUDE.md` importing the `AGENTS.md` upskill
compiles: each real client sends each rule once, in its own text (issue 15, item 3).

Claude Code 2.1.197 follows `@AGENTS.md` and reads the whole file, so a rule whose text
differs for Claude (a `<!-- @client:claude -->` block) would reach it twice: its own
`.claude/rules` copy and Codex's section. upskill moves Codex's rules to
`AGENTS.override.md`, which Codex 0.171.0 reads instead of `AGENTS.md`, and a rule with
one text for both stays in `AGENTS.md` for the two, with no Claude copy of its own.
Claude's first model request and `codex debug prompt-input` show each heading once.
"""

from __future__ import annotations

import sys

import client_turns
import pytest
from client_probe import Install, workspace
from client_turns import line_count, prompt_text
from model_endpoint import Endpoint
from real_clients import Clients

pytestmark = pytest.mark.clients

RULES = {
    "tone": "---\nschema: 1\ndescription: Tone\n---\n\n## Tone rule heading\n\nBe brief.\n\n"
    "<!-- @client:claude -->\nClaude only line.\n<!-- @endclient -->\n",
    "style": "---\nschema: 1\ndescription: Style\n---\n\n## Style rule heading\n\nUse ruff.\n",
}
CLAUDE_MD = "# Team\n\n@AGENTS.md\n"


@pytest.fixture(scope="module")
def installed(clients: Clients, tmp_path_factory: pytest.TempPathFactory) -> Install:
    base = tmp_path_factory.mktemp("claude-import")
    home, work, env = workspace(clients, base)
    registry = base / "reg"
    for name, text in RULES.items():
        (registry / "skills" / name).mkdir(parents=True)
        (registry / "skills" / name / "RULE.md").write_text(text)
    (work / "CLAUDE.md").write_text(CLAUDE_MD)
    done = clients.run(
        [sys.executable, "-m", "upskill", "add", str(registry), "--codex", "--claude"],
        cwd=work,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "twice" not in done.stderr
    rules = tuple(sorted(RULES))
    return Install("project", work, work, home, env, rules, (), (), (), done.stderr)


def test_the_files(installed: Install) -> None:
    work = installed.root
    assert (work / "CLAUDE.md").read_text() == CLAUDE_MD  # the team's, as written
    assert sorted(p.name for p in (work / ".claude/rules").iterdir()) == ["tone.md"]
    assert "Style rule heading" in (work / "AGENTS.md").read_text()
    assert "Tone rule heading" not in (work / "AGENTS.md").read_text()
    override = (work / "AGENTS.override.md").read_text()
    assert "Tone rule heading" in override and "Style rule heading" in override


def test_claude_sends_each_rule_once(
    clients: Clients, installed: Install, endpoint: Endpoint
) -> None:
    text = prompt_text(client_turns.claude(clients, installed, endpoint))
    assert line_count(text, "## Tone rule heading") == 1
    assert line_count(text, "Claude only line.") == 1
    assert line_count(text, "## Style rule heading") == 1


def test_codex_sends_each_rule_once(clients: Clients, installed: Install) -> None:
    done = clients.run(["codex", "debug", "prompt-input"], cwd=installed.cwd, env=installed.env)
    assert done.returncode == 0, done.stderr
    text = done.stdout.replace("\\n", "\n")
    assert line_count(text, "## Tone rule heading") == 1
    assert line_count(text, "## Style rule heading") == 1
    assert "Claude only line." not in text
