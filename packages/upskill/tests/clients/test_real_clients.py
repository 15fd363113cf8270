"""The real clients, asked offline what they loaded after `upskill add` (issue 14).

The example registry's `acme-review` bundle (four rules, four skills, two
agents, two MCP servers, one of them with a `${GITHUB_TOKEN}` reference) is
installed for every client into a temp project, or the global scope of a temp
HOME; then each client lists what it sees. Every installed item must appear
exactly once per client that reads its kind, where the client reads it
(docs/upskill/clients.md has the paths and the commands).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import client_turns
import pytest
from client_probe import (
    AGENTS_MD,
    TOKEN,
    Install,
    ask,
    copilot_agent_names,
    install_bundle,
    once,
)
from client_turns import compiled_headings, line_count, prompt_text, reached_once
from model_endpoint import Endpoint
from real_clients import Clients

from upskill.lifecycle.compiled import split_block
from upskill.render.compiled import parse_sections

pytestmark = pytest.mark.clients

CLIENTS = ("claude", "copilot", "vscode", "opencode", "codex", "gemini")
# The team's own AGENTS.md, with the managed block upskill compiles always-on rules into.
BLOCK = AGENTS_MD + "\n<!-- upskill:begin -->\n<!-- upskill:end -->\n"


@pytest.fixture(scope="module", params=["project", "global"])
def installed(
    request: pytest.FixtureRequest, clients: Clients, tmp_path_factory: pytest.TempPathFactory
) -> Install:
    base = tmp_path_factory.mktemp(request.param)
    at = install_bundle(clients, base, request.param, CLIENTS, agents_md=BLOCK)
    assert "skipped" not in at.stderr, at.stderr  # every client got every part
    return at


# ------------------------------------------------------------------ Claude Code


def test_claude_code_mcp(clients: Clients, installed: Install) -> None:
    listing = ask(clients, installed, "claude", "mcp", "list")
    once(re.findall(r"^([\w.-]+): ", listing, re.M), installed.mcps)
    shown = ask(clients, installed, "claude", "mcp", "get", "github")
    where = "User config" if installed.scope == "global" else "Project config"
    assert f"Scope: {where}" in shown
    assert "GITHUB_PERSONAL_ACCESS_TOKEN=${GITHUB_TOKEN}" in shown  # never expanded


def duplicate_reads(clients: Clients, at: Install, client: str) -> list[dict[str, str]]:
    """What `upskill doctor --json` says `client` reads twice."""
    argv = [sys.executable, "-m", "upskill", "doctor", "--json", *at.flags]
    doctor = json.loads(clients.run(argv, cwd=at.cwd, env=at.env).stdout)
    return [d for d in doctor.get("duplicate_reads", ()) if d["client"] == client]


def _names_under(text: str, heading: str) -> list[str]:
    """The `- name: …` entries of the list that follows `heading` in a prompt."""
    block = text.split(f"{heading}\n", 1)[1].lstrip("\n").split("\n\n", 1)[0]
    return re.findall(r"^- ([\w.:-]+): ", block, re.M)


def test_claude_code_turn(clients: Clients, installed: Install, endpoint: Endpoint) -> None:
    """What Claude Code 2.1.197 sends: its rules from `.claude/rules` (user level:
    `~/.claude/rules`), a `paths:` rule held back until a matching file is read; the
    project's AGENTS.md only through CLAUDE.md's `@AGENTS.md`; skills and agents from
    its own trees alone, each once (the `.agents/skills` copies are not read)."""
    text = prompt_text(client_turns.claude(clients, installed, endpoint))
    shown = re.findall(r"^Contents of (\S+) \(", text, re.M)
    rules = installed.root / ".claude/rules"
    written = {p.stem for p in rules.glob("*.md")}
    held = {r for r in written if "\npaths:\n" in (rules / f"{r}.md").read_text()}
    once(
        (Path(f).stem for f in shown if Path(f).parent == rules),
        written - held,
    )
    work = installed.cwd
    if installed.scope == "project":
        assert [f for f in shown if Path(f).parent != rules] == [
            str(work / "CLAUDE.md"),
            str(work / "AGENTS.md"),
        ]
        assert (work / "CLAUDE.md").read_text() == "@AGENTS.md\n"
    else:
        assert [f for f in shown if Path(f).parent != rules] == []
    team_line = AGENTS_MD.splitlines()[-1]
    assert line_count(text, team_line) == (1 if installed.scope == "project" else 0)
    # Every rule reaches Claude: in its tree or in the AGENTS.md block; both where its
    # text differs (a Claude-only block), which doctor reports.
    in_block = compiled_rules(installed)
    assert written | in_block == set(installed.rules)
    dups = duplicate_reads(clients, installed, "claude")
    assert {d["name"] for d in dups if d["kind"] == "rule"} == written & in_block
    skills = _names_under(text, "The following skills are available for use with the Skill tool:")
    once((n for n in skills if n.startswith("acme-")), installed.skills)
    agents = _names_under(text, "Available agent types for the Agent tool:")
    once((n for n in agents if n.startswith("acme-")), installed.agents)


# ------------------------------------------------------------------ Copilot CLI


def _block(at: Install) -> bytes:
    block = split_block((at.cwd / "AGENTS.md").read_bytes())
    assert block is not None
    return block.content


def compiled_rules(at: Install) -> set[str]:
    """The rules upskill compiled into the managed block of the project's AGENTS.md."""
    return set() if at.scope == "global" else set(parse_sections(_block(at)) or ())


def test_copilot_instructions(clients: Clients, installed: Install) -> None:
    sources = json.loads(ask(clients, installed, "copilot", "instruction", "list", "--json"))
    files = [s for s in sources if s["type"] != "model"]
    own = "/.copilot/instructions/" if installed.scope == "global" else ".github/instructions/"
    assert all(own in s["sourcePath"] for s in files), files
    labels = [re.sub(r"(\.instructions)?\.md$", "", s["label"]) for s in files]
    once(labels, set(labels))
    # Every rule reaches Copilot: in its own tree, or in the AGENTS.md block it reads.
    in_block = compiled_rules(installed)
    assert set(labels) | in_block == set(installed.rules)
    # Both only where Copilot's text differs (an `@client:copilot` block): doctor says so.
    dups = duplicate_reads(clients, installed, "copilot")
    twice = {d["name"] for d in dups if d["kind"] == "rule"}
    assert set(labels) & in_block == twice
    # CLAUDE.md's `@AGENTS.md`, which Copilot expands: the whole file twice (project).
    files = [d["name"] for d in dups if d["kind"] == "file"]
    assert files == (["AGENTS.md"] if installed.scope == "project" else [])
    repository = sorted(s["sourcePath"] for s in sources if s["type"] == "model")
    # AGENTS.md is the repository's own (with upskill's block); CLAUDE.md (project scope
    # only) holds `@AGENTS.md`; GEMINI.md holds Gemini's `@.gemini/upskill.md`, which
    # Copilot reads as written (test_gemini_once.py).
    assert repository == (
        ["AGENTS.md", "CLAUDE.md", "GEMINI.md"] if installed.scope == "project" else ["AGENTS.md"]
    )


def test_copilot_skills(clients: Clients, installed: Install) -> None:
    listing = ask(clients, installed, "copilot", "skill", "list")
    mine = listing.split("Builtin skills:")[0]
    once(re.findall(r"^  ([\w.-]+) - ", mine, re.M), installed.skills)


def test_copilot_agents(clients: Clients, installed: Install) -> None:
    once(copilot_agent_names(clients, installed), installed.agents)


def test_copilot_mcp(clients: Clients, installed: Install) -> None:
    listing = ask(clients, installed, "copilot", "mcp", "list")
    once(re.findall(r"^  ([\w.-]+) \(", listing, re.M), installed.mcps)


# ------------------------------------------------------------------ opencode


def test_opencode_config(clients: Clients, installed: Install) -> None:
    config = json.loads(ask(clients, installed, "opencode", "debug", "config"))
    if installed.scope == "global":
        entries = [f"~/.agents/rules/{r}/RULE.md" for r in installed.rules]
        assert config["instructions"] == entries
    else:
        assert config["instructions"] == [".agents/rules/**/RULE.md"]
        matched = sorted(p.parent.name for p in installed.root.glob(".agents/rules/**/RULE.md"))
        # opencode reads AGENTS.md natively: the always-on rules upskill compiled into
        # its block reach opencode there, and only the path-scoped one needs a file.
        once([*matched, *compiled_rules(installed)], installed.rules)
    assert sorted(config["mcp"]) == list(installed.mcps)
    # opencode masks environment values; on disk the reference is spelled its way, {env:VAR}.
    assert config["mcp"]["github"]["environment"] == {"GITHUB_PERSONAL_ACCESS_TOKEN": "***"}
    on_disk = installed.root / (
        ".config/opencode/opencode.json" if installed.scope == "global" else "opencode.json"
    )
    written = json.loads(on_disk.read_text())["mcp"]["github"]["environment"]
    assert written == {"GITHUB_PERSONAL_ACCESS_TOKEN": "{env:GITHUB_TOKEN}"}


def test_opencode_skills(clients: Clients, installed: Install) -> None:
    skills = json.loads(ask(clients, installed, "opencode", "debug", "skill"))
    once((s["name"] for s in skills if s["location"] != "<built-in>"), installed.skills)


def test_opencode_agents(clients: Clients, installed: Install) -> None:
    for name in installed.agents:
        agent = json.loads(ask(clients, installed, "opencode", "debug", "agent", name))
        assert agent["name"] == name and agent["mode"] == "subagent"
    reviewer = json.loads(
        ask(clients, installed, "opencode", "debug", "agent", "acme-security-reviewer")
    )
    final = {p["permission"]: p["action"] for p in reviewer["permission"] if p["pattern"] == "*"}
    # tools: [read, grep, glob, bash]; opencode allows everything else unless denied
    assert {k: final[k] for k in ("read", "grep", "glob", "bash")} == dict.fromkeys(
        ("read", "grep", "glob", "bash"), "allow"
    )
    assert {k: final[k] for k in ("edit", "webfetch", "websearch")} == dict.fromkeys(
        ("edit", "webfetch", "websearch"), "deny"
    )


# ------------------------------------------------------------------ Codex


def test_codex_prompt(clients: Clients, installed: Install) -> None:
    prompt = ask(clients, installed, "codex", "debug", "prompt-input")
    roots = dict(re.findall(r"- `(r\d+)` = `([^`]+)`", prompt))
    system = {r for r, path in roots.items() if "/.codex/" in path}
    listed = re.findall(r"^- ([\w.-]+): .*\(file: (r\d+)/", prompt.replace("\\n", "\n"), re.M)
    once((name for name, root in listed if root not in system), installed.skills)
    assert prompt.count("Run the tests before you commit.") == 1  # the repository's AGENTS.md
    # The always-on rules upskill compiled (the project's block, or ~/.codex/AGENTS.md),
    # each once: the path-scoped rule is not there, Codex has no file patterns.
    if installed.scope == "global":
        sections = parse_sections((installed.root / ".codex/AGENTS.md").read_bytes()) or {}
    else:
        sections = parse_sections(_block(installed)) or {}
    assert set(sections) == {r for r in installed.rules if r != "acme-python-style"}
    text = prompt.replace("\\n", "\n")
    for body in sections.values():
        heading = body.decode().splitlines()[0]
        assert heading.startswith("## ") and text.count(heading) == 1, heading
    # Subagent role files: `spawn_agent` lists each role once, with its description.
    roles = re.findall(r"\\n([\w.-]+): \{\\n", prompt.split("Available roles:", 1)[1])
    once((r for r in roles if r.startswith("acme-")), installed.agents)
    servers = json.loads(ask(clients, installed, "codex", "mcp", "list", "--json"))
    once((s["name"] for s in servers), installed.mcps)
    github = next(s for s in servers if s["name"] == "github")["transport"]
    # Codex expands no `${VAR}`: the reference reaches it as written, never the token
    assert github["env"] == {"GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_TOKEN}"}
    assert TOKEN not in json.dumps(servers)


# ------------------------------------------------------------------ Gemini CLI


def test_gemini(clients: Clients, installed: Install) -> None:
    listing = ask(clients, installed, "gemini", "skills", "list")
    once(re.findall(r"^([\w.-]+) \[Enabled\]", listing, re.M), installed.skills)
    done = clients.run(["gemini", "mcp", "list"], cwd=installed.cwd, env=installed.env)
    listed = re.findall(r"^\S+ ([\w.-]+): ", done.stdout + done.stderr, re.M)
    once(listed, installed.mcps)


def test_gemini_prompt(clients: Clients, installed: Install, endpoint: Endpoint) -> None:
    # The always-on rules compiled into .gemini/upskill.md, which GEMINI.md imports
    # (project), or ~/.gemini/GEMINI.md reach Gemini's first model request once each;
    # the path-scoped one is not compiled. Gemini reads GEMINI.md only: the team's
    # AGENTS.md is not in its context.
    text = prompt_text(client_turns.gemini(clients, installed, endpoint))
    project = installed.scope == "project"
    path = installed.root / (".gemini/upskill.md" if project else ".gemini/GEMINI.md")
    headings = compiled_headings(path)
    assert set(headings) == {r for r in installed.rules if r != "acme-python-style"}
    reached_once(text, headings)
    read = installed.root / ("GEMINI.md" if project else ".gemini/GEMINI.md")
    assert line_count(text, f"--- Context from: {read} ---") == 1
    assert "Run the tests before you commit." not in text
