"""One `upskill add` of the example registry's `acme-review` bundle for a set of real
clients, in a temp project or the global scope of a temp HOME, and the two checks the
`clients` suite asks of every listing (tests/clients/)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from real_clients import Clients

REGISTRY = Path(__file__).resolve().parents[4] / "examples" / "registry"
TOKEN = "tok-from-the-environment"
AGENTS_MD = "# Team\n\nRun the tests before you commit.\n"


@dataclass(frozen=True)
class Install:
    scope: str
    root: Path  # where upskill wrote: the project, or HOME
    cwd: Path  # where the clients run: the project (a fresh repository in global scope)
    home: Path
    env: dict[str, str]
    rules: tuple[str, ...]
    skills: tuple[str, ...]
    agents: tuple[str, ...]
    mcps: tuple[str, ...]
    stderr: str  # what `upskill add` reported

    @property
    def flags(self) -> tuple[str, ...]:
        return ("-g",) if self.scope == "global" else ()


def workspace(clients: Clients, base: Path) -> tuple[Path, Path, dict[str, str]]:
    """A test HOME and a fresh repository under `base`, the repository trusted by Gemini
    and Codex, and the environment the clients run with there."""
    home, work = base / "home", base / "work"
    home.mkdir()
    work.mkdir()
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    (home / ".gemini").mkdir()
    (home / ".gemini/trustedFolders.json").write_text(json.dumps({str(work): "TRUST_FOLDER"}))
    (home / ".codex").mkdir()  # Codex reads a project's .codex/config.toml once trusted
    (home / ".codex/config.toml").write_text(f'[projects."{work}"]\ntrust_level = "trusted"\n')
    return home, work, clients.env(home, GITHUB_TOKEN=TOKEN, COPILOT_ALLOW_ALL="true")


def install_bundle(
    clients: Clients,
    base: Path,
    scope: str,
    ids: Sequence[str],
    agents_md: str | None = AGENTS_MD,
    files: Mapping[str, str] | None = None,
) -> Install:
    """`upskill add <registry> acme-review --<id>…` into `base`/work or `base`/home, in a
    repository whose own AGENTS.md is `agents_md` (None: it has none), and holding
    `files` (path -> text)."""
    home, work, env = workspace(clients, base)
    if agents_md is not None:
        (work / "AGENTS.md").write_text(agents_md)
    for rel, text in (files or {}).items():
        (work / rel).parent.mkdir(parents=True, exist_ok=True)
        (work / rel).write_text(text)
    flags = [*(f"--{c}" for c in ids), *(["-g"] if scope == "global" else [])]
    done = clients.run(
        [sys.executable, "-m", "upskill", "add", str(REGISTRY), "acme-review", *flags],
        cwd=work,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    root = home if scope == "global" else work
    lock = json.loads((root / ".upskill-lock.json").read_text())

    def names(kind: str) -> tuple[str, ...]:
        return tuple(sorted(i["name"] for i in lock["items"] if i["kind"] == kind))

    mcps = tuple(sorted({m["name"] for m in lock["mcps"]}))
    assert names("rule") and names("skill") and names("agent") and len(mcps) == 2
    return Install(
        scope,
        root,
        work,
        home,
        env,
        names("rule"),
        names("skill"),
        names("agent"),
        mcps,
        stderr=done.stderr,
    )


def ask(clients: Clients, at: Install, *argv: str, **env: str) -> str:
    done = clients.run(argv, cwd=at.cwd, env={**at.env, **env})
    assert done.returncode == 0, f"{' '.join(argv)}: {done.returncode}\n{done.stderr}"
    return done.stdout


def once(seen: Iterable[str], expected: Iterable[str]) -> None:
    """Each expected name exactly once, nothing else."""
    assert Counter(seen) == Counter(expected)


def said_twice(stderr: str) -> dict[str, set[str]]:
    """What `upskill add` said each client reads twice (`lifecycle.desired.twice_lines`):
    client -> rule names."""
    out: dict[str, set[str]] = {}
    for client, rules in re.findall(
        r"^warning: (\S+): \d+ rules? read twice \(([^)]*)\)", stderr, re.M
    ):
        out.setdefault(client, set()).update(r.split(":", 1)[1] for r in rules.split(", "))
    return out


def copilot_agent_names(clients: Clients, at: Install) -> list[str]:
    """The agents Copilot CLI lists, one entry per copy it loaded. Without a model
    provider the CLI stops at the agent lookup and names every agent it has."""
    offline = {
        "COPILOT_OFFLINE": "true",
        "COPILOT_PROVIDER_BASE_URL": "http://127.0.0.1:9",
        "COPILOT_MODEL": "none",
    }
    done = clients.run(
        ["copilot", "--agent", "no-such-agent", "-p", "hi"], cwd=at.cwd, env={**at.env, **offline}
    )
    found = re.search(r"available: (.*)$", done.stdout + done.stderr, re.M)
    assert found is not None, done.stdout + done.stderr
    return found.group(1).split(", ")


# One skill, `dx`, with a block only each of OWN_BLOCK sees: which client shows which
# copy is told by the one line it carries (the skill-rendering suites, both scopes).
SKILL_CLIENTS = ("claude", "copilot", "opencode", "codex", "gemini", "kilo", "amp")
OWN_BLOCK = ("codex", "gemini", "opencode", "kilo")


def own_line(client: str) -> str:
    return f"Only for {client}."


def skill_registry(base: Path, override: str | None = None) -> Path:
    """A registry under `base` holding `dx`: per-client blocks, or (`override`) one
    client's `SKILL.<client>.md` override instead."""
    root = base / "registry"
    (root / "skills" / "dx").mkdir(parents=True)
    blocks = "".join(
        f"<!-- @client:{c} -->\n{own_line(c)}\n<!-- @endclient -->\n\n" for c in OWN_BLOCK
    )
    (root / "skills" / "dx" / "SKILL.md").write_text(
        "---\nschema: 1\ndescription: Use when testing one skill per client\n---\n\n"
        f"Common.\n\n{'' if override else blocks}"
    )
    if override:
        (root / "skills" / "dx" / f"SKILL.{override}.md").write_text(f"{own_line(override)}\n")
    return root
