"""Scenario engine shared by the fixture generator and the ctxkit replay test.

A scenario is data: a list of actions that build a sandbox tree (files, modes,
symlinks, FIFOs) interleaved with CLI runs. The same engine applies the actions
for the reference run (generate.py, a subprocess per run) and for the replay
(an in-process call of ctxkit's CLI), and reduces both to the same comparable
form: exit code, normalized stdout and stderr, and a digest of every path in the
sandbox afterwards. Nothing here knows how either implementation works.

Standard library only; runs on Python 3.11+.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROG = "agents-md-compiler"
STAMP_RE = re.compile(r"\d{8}T\d{6}\.\d{6}Z")
TIME_RE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")
OPID_RE = re.compile(r"(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])")
HEX64_RE = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")
TOKEN_RE = re.compile(r"\{(ROOT|sha256:[^}]*|receipt:[a-z]+:-?[0-9]+|backup:-?[0-9]+)\}")

# (code, stdout, stderr) of one CLI run; argv excludes the program name.
Runner = Callable[[list[str], str, Mapping[str, str]], tuple[int, bytes, bytes]]


@dataclass
class Sandbox:
    """One scenario's tree: ROOT/work (the bundle), ROOT/home ($HOME), ROOT/bin."""

    root: Path
    extra_digest_paths: list[str] = field(default_factory=list)

    def path(self, rel: str) -> Path:
        return self.root / rel

    def environ(self, scenario_env: Mapping[str, str]) -> dict[str, str]:
        env = {
            "HOME": str(self.root / "home"),
            "PATH": f"{self.root / 'bin'}{os.pathsep}/usr/bin{os.pathsep}/bin",
            "LANG": "C.UTF-8",
        }
        for key, value in scenario_env.items():
            if value is None:
                env.pop(key, None)
            else:
                env[key] = self.expand(value)
        return env

    def expand(self, text: str) -> str:
        return TOKEN_RE.sub(lambda m: self._token(m.group(1)), text)

    def _token(self, token: str) -> str:
        if token == "ROOT":
            return str(self.root)
        kind, _, arg = token.partition(":")
        if kind == "sha256":
            return hashlib.sha256(self.path(arg).read_bytes()).hexdigest()
        if kind == "backup":
            pattern, index = "**/backups/*.bak", arg
        else:
            operation, _, index = arg.partition(":")
            pattern = f"**/receipts/*-{operation}-*.json"
        found = sorted(self.root.glob(pattern), key=lambda p: p.name)
        return str(found[int(index)]) if found else str(self.root / f"no-{kind}")

    def apply(self, action: Mapping[str, Any]) -> None:
        op = action["op"]
        target = self.path(self.expand(action["path"])) if "path" in action else None
        if op == "write":
            assert target is not None
            target.parent.mkdir(parents=True, exist_ok=True)
            if "b64" in action:
                data = base64.b64decode(action["b64"])
            else:
                data = self.expand(action["text"]).encode("utf-8")
            if target.is_symlink() or target.exists():
                target.unlink()
            target.write_bytes(data)
            target.chmod(int(action.get("mode", "0644"), 8))
        elif op == "append":
            assert target is not None
            with target.open("ab") as handle:
                handle.write(self.expand(action["text"]).encode("utf-8"))
        elif op == "mkdir":
            assert target is not None
            target.mkdir(parents=True, exist_ok=True)
            target.chmod(int(action.get("mode", "0755"), 8))
        elif op == "symlink":
            assert target is not None
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(self.expand(action["to"]))
        elif op == "fifo":
            assert target is not None
            os.mkfifo(target)
        elif op == "remove":
            assert target is not None
            if target.is_dir() and not target.is_symlink():
                for child in sorted(target.rglob("*"), reverse=True):
                    child.rmdir() if child.is_dir() and not child.is_symlink() else child.unlink()
                target.rmdir()
            else:
                target.unlink()
        elif op == "chmod":
            assert target is not None
            target.chmod(int(action["mode"], 8))
        elif op == "copy":
            assert target is not None
            source = self.path(self.expand(action["from"]))
            target.write_bytes(source.read_bytes())
        elif op == "edit-json":
            assert target is not None
            document = json.loads(target.read_text(encoding="utf-8"))
            for dotted, value in action["set"].items():
                node = document
                keys = dotted.split(".")
                for key in keys[:-1]:
                    node = node[key]
                node[keys[-1]] = self.expand(value) if isinstance(value, str) else value
            target.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n")
        else:
            raise ValueError(f"unknown action {op!r}")


def setup_base(box: Sandbox) -> None:
    for name in ("work", "home", "bin"):
        (box.root / name).mkdir(parents=True, exist_ok=True)


def run_scenario(scenario: Mapping[str, Any], root: Path, runner: Runner) -> dict[str, Any]:
    """Apply every action; return the observed results and the final tree."""
    box = Sandbox(root, list(scenario.get("digest_paths", [])))
    setup_base(box)
    results: list[dict[str, Any]] = []
    for action in scenario["actions"]:
        if action["op"] != "run":
            box.apply(action)
            continue
        argv = [box.expand(word) for word in action["argv"]]
        cwd = str(box.path(action.get("cwd", "work")))
        env = box.environ({**scenario.get("env", {}), **action.get("env", {})})
        code, out, err = runner(argv, cwd, env)
        results.append(observe(box, code, out, err))
    return {"results": results, "tree": snapshot(box)}


# --- normalization -----------------------------------------------------------


# Paths whose digests name state directories even when the path itself is absent.
DIGEST_CANDIDATES = (
    "work/out/AGENTS.md",
    "work/out/RULES.md",
    "work/nodir/AGENTS.md",
    "work/afile/AGENTS.md",
    "work/other/AGENTS.md",
    "work/t/AGENTS.md",
    "home/.codex/AGENTS.md",
)


def _digest_names(box: Sandbox) -> dict[str, str]:
    """Run-dependent digests: of paths (deployment dirs and lock files are named by
    them) and of files whose bytes hold the sandbox root (a rollback receipt records
    the digest of the install receipt it undid)."""
    names: dict[str, str] = {}
    root = str(box.root)
    candidates = [str(box.root / rel) for rel in (*DIGEST_CANDIDATES, *box.extra_digest_paths)]
    paths = sorted(_walk(box.root))
    candidates += [str(path) for path in paths]
    for text in candidates:
        rel = os.path.relpath(text, root)
        names[hashlib.sha256(text.encode()).hexdigest()] = f"$PATHSHA({rel})"
    path_names = dict(names)
    for path in paths:
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            if root.encode() in data:
                rel = normalize_text(os.path.relpath(path, root), box.root, path_names)
                names[hashlib.sha256(data).hexdigest()] = f"$FILESHA({rel})"
    return names


def normalize_text(text: str, root: Path, digests: Mapping[str, str] | None = None) -> str:
    text = text.replace(str(root), "$ROOT")
    text = STAMP_RE.sub("$STAMP", text)
    text = TIME_RE.sub("$TIME", text)
    if digests:
        text = HEX64_RE.sub(lambda m: digests.get(m.group(0), m.group(0)), text)
    return OPID_RE.sub("$OPID", text)


def observe(box: Sandbox, code: int, out: bytes, err: bytes) -> dict[str, Any]:
    digests = _digest_names(box)
    record: dict[str, Any] = {"exit": code}
    try:
        document = json.loads(out)
    except ValueError:
        document = None
    if isinstance(document, dict) and out.endswith(b"\n") and out.count(b"\n") == 1:
        record["json"] = json.loads(normalize_text(out.decode(), box.root, digests))
        record["keys_sorted"] = list(document) == sorted(document)
    else:
        try:
            record["stdout"] = normalize_text(out.decode("utf-8"), box.root, digests)
        except UnicodeDecodeError:
            record["stdout_b64"] = base64.b64encode(out).decode()
    record["stderr"] = normalize_text(err.decode("utf-8", "replace"), box.root, digests)
    return record


def snapshot(box: Sandbox) -> dict[str, str]:
    """Every path under ROOT: type, mode, and a digest of normalized content."""
    digests = _digest_names(box)
    tree: dict[str, str] = {}
    for path in sorted(_walk(box.root)):
        rel = normalize_text(os.path.relpath(path, box.root), box.root, digests)
        info = path.lstat()
        mode = f"{stat.S_IMODE(info.st_mode):04o}"
        if stat.S_ISLNK(info.st_mode):
            entry = "l " + normalize_text(os.readlink(path), box.root, digests)
        elif stat.S_ISDIR(info.st_mode):
            entry = f"d {mode}"
        elif stat.S_ISFIFO(info.st_mode):
            entry = f"p {mode}"
        else:
            data = path.read_bytes()
            try:
                data = normalize_text(data.decode("utf-8"), box.root, digests).encode()
            except UnicodeDecodeError:
                pass
            entry = f"f {mode} {hashlib.sha256(data).hexdigest()[:16]}"
        key = rel
        while key in tree:  # two stamps normalized to one name
            key += "+"
        tree[key] = entry
    return tree


def _walk(root: Path) -> Iterable[Path]:
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            yield Path(dirpath, name)
