"""The registry's other clients on npm, asked offline what they loaded after `upskill add`.

Qwen Code, Kilo, Cline, Amp, Auggie, Factory Droid and Continue, with the same
`acme-review` bundle as test_real_clients.py. Kilo and Amp list skills and MCP servers
themselves; the others show what they loaded only in the first request of a turn, so
they are pointed at a local endpoint (`model_endpoint.py`) that records it: the system
prompt carries the rules, the tools and reminders the skills and subagents. A rule
scoped by `paths:` is expected where the client sends it from the start and absent where
the client holds it back until a matching file is touched (docs/upskill/clients.md).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import client_turns
import pytest
from client_probe import REGISTRY, Install, ask, install_bundle, once
from client_turns import compiled_headings, line_count, reached_once
from model_endpoint import Endpoint
from real_clients import Clients

pytestmark = pytest.mark.clients

CLIENTS = ("qwen", "kilo", "cline", "amp", "augment", "factory", "continue")
TEAM_LINE = "Run the tests before you commit."  # the project's own AGENTS.md


@pytest.fixture(scope="module", params=["project", "global"])
def installed(
    request: pytest.FixtureRequest, clients: Clients, tmp_path_factory: pytest.TempPathFactory
) -> Install:
    at = install_bundle(clients, tmp_path_factory.mktemp(request.param), request.param, CLIENTS)
    # Cline reads MCP servers from its user settings file only
    skipped = [line for line in at.stderr.splitlines() if "skipped" in line]
    assert skipped == (
        []
        if at.scope == "global"
        else ["  cline: 8 items, MCP filesystem skipped, MCP github skipped"]
    ), at.stderr
    if at.scope == "project":
        assert "warning: mcp github: cline has no project-scope config file\n" in at.stderr
    return at


def scoped(at: Install) -> set[str]:
    """The installed rules that carry a `paths:` scope."""
    return {
        r for r in at.rules if "\nscope:\n" in (REGISTRY / "skills" / r / "RULE.md").read_text()
    }


def text_of(content: Any) -> str:
    """A chat message's text: a string, or the text parts of a list."""
    if isinstance(content, str):
        return content
    return "\n".join(part.get("text", "") for part in content if isinstance(part, dict))


def tool(request: dict[str, Any], name: str) -> str:
    found = [
        t["function"]["description"] for t in request["tools"] if t["function"]["name"] == name
    ]
    assert len(found) == 1, [t["function"]["name"] for t in request["tools"]]
    return str(found[0])


# ------------------------------------------------------------------ Qwen Code


def test_qwen(clients: Clients, installed: Install, endpoint: Endpoint) -> None:
    turn = client_turns.qwen(clients, installed, endpoint)
    system = text_of(turn["messages"][0]["content"])
    assert system.count(TEAM_LINE) == 1
    # A `paths:` rule waits until a matching file is read; the others ride along at once.
    rules = re.findall(r"^--- Rule from: (\S+) ---$", system, re.M)
    once((Path(r).stem for r in rules), set(installed.rules) - scoped(installed))
    own = "../home/.qwen/rules/" if installed.scope == "global" else ".qwen/rules/"
    assert all(r.startswith(own) for r in rules), rules
    reminder = text_of(turn["messages"][1]["content"])
    listed = re.findall(
        r"<name>\n([\w.-]+)\n</name>\n<description>\n[^<]*\n</description>\n<location>\n(\w+)\n",
        reminder,
    )
    where = "user" if installed.scope == "global" else "project"
    once((n for n, loc in listed if loc != "bundled"), installed.skills)
    assert {loc for _, loc in listed if loc != "bundled"} == {where}
    agents = re.findall(r"^- \*\*([\w.-]+)\*\*: ", tool(turn, "agent"), re.M)
    once((a for a in agents if a.startswith("acme-")), installed.agents)
    listing = ask(clients, installed, "qwen", "mcp", "list")
    once(re.findall(r"([\w.-]+): npx .* \(stdio\)", listing), installed.mcps)


# ------------------------------------------------------------------ Kilo


def test_kilo(clients: Clients, installed: Install) -> None:
    config = json.loads(ask(clients, installed, "kilo", "debug", "config"))
    rules = installed.root / (".kilo/rules")
    assert sorted(config["instructions"]) == sorted(str(rules / f"{r}.md") for r in installed.rules)
    # The project config holds no `{env:…}`, which would make Kilo skip the whole file.
    assert sorted(config["mcp"]) == list(installed.mcps)
    # Its agents are read from `.kilo/agents` (`kilo debug agent` shows the same).
    once(list(config["agent"]), installed.agents)
    assert {a["mode"] for a in config["agent"].values()} == {"subagent"}
    skills = json.loads(ask(clients, installed, "kilo", "debug", "skill"))
    mine = [s for s in skills if s["location"] != "builtin"]
    once((s["name"] for s in mine), installed.skills)
    assert all(s["location"].startswith(str(installed.root / ".agents/skills/")) for s in mine)


# ------------------------------------------------------------------ Cline


def test_cline(clients: Clients, installed: Install, endpoint: Endpoint) -> None:
    turn = client_turns.cline(clients, installed, endpoint)
    system = text_of(turn["messages"][0]["content"])
    assert system.count(TEAM_LINE) == 1
    # Cline CLI 3.0.65 sends a `paths:` rule from the first request on.
    once(re.findall(r"^## (acme-[\w.-]+)$", system, re.M), installed.rules)
    skills = re.search(r"Available skills: (.*)\.$", tool(turn, "skills"), re.M)
    assert skills is not None
    once(skills.group(1).split(", "), installed.skills)
    if installed.scope == "global":  # no project MCP file: upskill skipped it there
        log = (installed.home / ".cline/data/logs/cline.log").read_text()
        # Cline logs each server it reads from its settings as it connects to it.
        started = set(re.findall(r'\[mcp\][^\n]*?MCP server \\"([\w.-]+)\\"', log))
        assert started == set(installed.mcps), log[-2000:]


# ------------------------------------------------------------------ Amp


def test_amp(clients: Clients, installed: Install) -> None:
    key = {"AMP_API_KEY": "sgamp_offline"}  # any key: without one Amp starts a login flow
    listing = ask(clients, installed, "amp", "skill", "list", **key)
    found = re.findall(r"^  • ([\w.-]+)\n.*\n +(\S+)$", listing, re.M)
    mine = [(n, loc) for n, loc in found if loc.startswith("file://")]
    once((n for n, _ in mine), installed.skills)
    tree = ".config/agents/skills/" if installed.scope == "global" else ".agents/skills/"
    assert all(loc.startswith(f"file://{installed.root / tree}") for _, loc in mine), mine
    servers = ask(clients, installed, "amp", "mcp", "list", **key)
    header = (
        "Global ~/.config/amp/settings.json"
        if installed.scope == "global"
        else "Workspace .amp/settings.json"
    )
    assert header in servers
    once(re.findall(r"^  ([\w.-]+) +command ", servers, re.M), installed.mcps)


# ------------------------------------------------------------------ Auggie


def test_augment(clients: Clients, installed: Install, endpoint: Endpoint) -> None:
    turn = client_turns.augment(clients, installed, endpoint)
    rules = {r["path"]: r["type"] for r in turn["rules"]}
    assert rules.pop("AGENTS.md") == 0  # always applied
    own = f"{installed.root}/.augment/rules/" if installed.scope == "global" else ".augment/rules/"
    mine = {p: t for p, t in rules.items() if p.startswith(own)}
    once((Path(p).stem for p in mine), installed.rules)
    # 0 = always, 2 = agent requested; a user rule is always applied
    requested = set() if installed.scope == "global" else scoped(installed)
    assert {Path(p).stem: t for p, t in mine.items()} == {
        r: 2 if r in requested else 0 for r in installed.rules
    }
    once((s["name"] for s in turn["skills"]), installed.skills)
    tree = str(installed.root / ".agents/skills")
    assert all(s["location"].startswith(tree) for s in turn["skills"]), turn["skills"]
    servers = json.loads(ask(clients, installed, "auggie", "mcp", "list", "--json"))["servers"]
    once((s["name"] for s in servers), installed.mcps)


# ------------------------------------------------------------------ Factory Droid


def test_factory(clients: Clients, installed: Install, endpoint: Endpoint) -> None:
    turn = client_turns.factory(clients, installed, endpoint)
    reminders = "\n".join(text_of(m["content"]) for m in turn["messages"])
    assert reminders.count(TEAM_LINE) == 1
    # Droid reads AGENTS.md only: upskill compiles the always-on rules into
    # ~/.factory/AGENTS.md, its "Personal Global Instructions". The project's AGENTS.md
    # is the team's own, without a managed block, so upskill left it alone and said so
    # (tests/clients/test_compiled_reach.py covers the block).
    if installed.scope == "global":
        compiled = installed.home / ".factory/AGENTS.md"
        reached_once(reminders, compiled_headings(compiled))
        assert line_count(reminders, "% cat ~/.factory/AGENTS.md") == 1
    else:
        assert "factory: 3 rules not delivered (AGENTS.md is the team's own file" in (
            installed.stderr
        )
    skills = reminders.split("Available skills (", 1)[1].split("</system-reminder>", 1)[0]
    once(
        (n for n in re.findall(r"^([\w.-]+): ", skills, re.M) if n.startswith("acme-")),
        installed.skills,
    )
    droids = re.findall(r"^- ([\w.-]+): .* \(location: (\w+)\)$", reminders, re.M)
    once((n for n, _ in droids), installed.agents)
    where = "personal" if installed.scope == "global" else "project"
    assert {loc for _, loc in droids} == {where}
    listing = ask(clients, installed, "droid", "mcp", "list")
    servers = re.findall(r"^  ([\w.-]+)  stdio  .*\[(\w+)\]$", listing, re.M)
    once((n for n, _ in servers), installed.mcps)
    assert {s for _, s in servers} == {"user" if installed.scope == "global" else "project"}


# ------------------------------------------------------------------ Continue


def test_continue(clients: Clients, installed: Install, endpoint: Endpoint) -> None:
    turn = client_turns.continue_(clients, installed, endpoint)
    system = text_of(turn["messages"][0]["content"])
    assert system.count(TEAM_LINE) == 1
    # Rules go in unnamed; each is known by its first heading. `globs:` rules are never sent.
    for rule in installed.rules:
        body = (installed.root / ".continue/rules" / f"{rule}.md").read_text()
        heading = re.search(r"^## .+$", body, re.M)
        assert heading is not None
        expected = 0 if rule in scoped(installed) else 1
        assert system.count(heading.group(0) + "\n") == expected, rule
    listed = re.findall(r"^name: ([\w.-]+)$", tool(turn, "Skills"), re.M)
    once(listed, installed.skills)
