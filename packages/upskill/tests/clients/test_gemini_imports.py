"""Gemini CLI reads a whitespace-preceded `@word` in a context file as an import
(issue 15, item 3 follow-up): upskill's account of which words (`render.imports`) is
checked against gemini-cli 0.61.0's own `findImports`/`findCodeRegions`, run by the
pinned node on the same texts, and a rule installed for Gemini reaches the model with
an `Import failed` comment where the install report said it would."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import client_turns
import pytest
from client_probe import Install, workspace
from client_turns import prompt_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from model_endpoint import Endpoint
from real_clients import Clients

from upskill.render.imports import at_imports

pytestmark = pytest.mark.clients

BUNDLE = "@google/gemini-cli/bundle"
# The functions between these two, in the bundle chunk that holds them.
FIRST, AFTER = "function findImports(content)", "async function processImports("
DRIVER = """
const texts = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"));
console.log(JSON.stringify(texts.map((t) => {
  const regions = findCodeRegions(t);
  return findImports(t)
    .filter((x) => !regions.some(([s, e]) => x.start >= s && x.start < e))
    .map((x) => [x.start, x.path]);
})));
"""


def _gemini_code(clients: Clients) -> str:
    for chunk in sorted((clients.modules / BUNDLE).glob("*.js")):
        text = chunk.read_text()
        if FIRST in text:
            start = text.index(FIRST)
            return text[start : text.index(AFTER, start)]
    raise AssertionError(f"no {FIRST!r} in {BUNDLE}")


# Texts built from the characters that matter: spaces, line breaks, `@`, backticks, the
# characters a word may start with, and some that it may not.
texts = st.lists(
    st.text(st.sampled_from(" \t\n\r@`./aZ-_1é\u00a0x"), max_size=40), min_size=50, max_size=50
)


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(batch=texts)
def test_the_words_are_geminis(clients: Clients, tmp_path: Path, batch: list[str]) -> None:
    script, inputs = tmp_path / "driver.cjs", tmp_path / "texts.json"
    script.write_text(_gemini_code(clients) + DRIVER)
    inputs.write_text(json.dumps(batch))
    done = clients.run(["node", str(script), str(inputs)], cwd=tmp_path, env=clients.env(tmp_path))
    assert done.returncode == 0, done.stderr
    theirs = json.loads(done.stdout)
    # JavaScript offsets count UTF-16 units; the alphabet is in the BMP, so they agree.
    assert [[list(w) for w in at_imports(t)] for t in batch] == theirs


RULE = """---
schema: 1
name: team-review
description: Who reviews what
---

## Review

- Ask @security-team before merging auth changes, or mail ops@example.com.
- Write `@oncall` in the channel when it breaks.
"""


def test_gemini_gets_what_the_report_said(
    clients: Clients, tmp_path: Path, endpoint: Endpoint
) -> None:
    registry = tmp_path / "registry"
    (registry / "skills/team-review").mkdir(parents=True)
    (registry / "skills/team-review/RULE.md").write_text(RULE)
    home, work, env = workspace(clients, tmp_path)
    done = clients.run(
        [sys.executable, "-m", "upskill", "add", str(registry), "--gemini"], cwd=work, env=env
    )
    assert done.returncode == 0, done.stderr
    said = re.findall(r"reads `@(\S+)` as an import", done.stderr)
    assert said == ["security-team"]
    at = Install("project", work, work, home, env, ("team-review",), (), (), (), done.stderr)
    text = prompt_text(client_turns.gemini(clients, at, endpoint))
    failed = re.findall(r"<!-- Import failed: (\S+) - ENOENT", text)
    assert failed == said
    assert "or mail ops@example.com." in text  # no space before the `@`
    assert "- Write `@oncall` in the channel when it breaks." in text  # a code span
