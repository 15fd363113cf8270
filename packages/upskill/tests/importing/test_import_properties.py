"""Property tests: import never writes outside its directory and never copies a secret."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from upskill.clientconf.places import Places
from upskill.clients import SELECTABLE_CLIENTS
from upskill.errors import UpskillError
from upskill.importing.plan import plan_import
from upskill.importing.write import write_registry

# File and server names as a user (or a hostile repository) might spell them.
NAMES = st.lists(
    st.sampled_from([*"abcXYZ09-_. é/\\", "..", "../", "%2e"]), min_size=1, max_size=8
).map("".join)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _snapshot(root: Path, skip: Path) -> dict[str, bytes]:
    out = {}
    for dirpath, _, files in os.walk(root):
        for name in files:
            path = Path(dirpath, name)
            if not path.is_relative_to(skip):
                out[str(path)] = path.read_bytes()
    return out


def _put(root: Path, rel: str, text: str) -> None:
    path = root / rel
    try:
        path.resolve().relative_to(root.resolve())
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    except (OSError, ValueError):
        pass  # a name the filesystem (or the test's own root) cannot hold


@SETTINGS
@given(
    rules=st.lists(NAMES, max_size=4),
    skills=st.lists(NAMES, max_size=3),
    servers=st.lists(NAMES, max_size=4),
    headings=st.lists(NAMES, max_size=3),
)
def test_import_writes_only_inside_its_directory(
    rules: list[str], skills: list[str], servers: list[str], headings: list[str]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        outer = Path(tmp)
        root = outer / "project"
        root.mkdir()
        for name in rules:
            _put(root, f".claude/rules/{name}.md", f"Rule {name}.\n")
        for name in skills:
            _put(root, f".claude/skills/{name}/SKILL.md", "---\ndescription: s\n---\n\nS.\n")
        _put(root, "CLAUDE.md", "".join(f"# {h}\n\nText.\n\n" for h in headings) or "Text.\n")
        entries = {name: {"command": "run", "args": [name]} for name in servers}
        _put(root, ".mcp.json", json.dumps({"mcpServers": entries}))
        target = root / "out" / "registry"
        before = _snapshot(outer, target)
        try:
            plan = plan_import(
                Places(root, outer / "home", outer / "home" / ".config"),
                SELECTABLE_CLIENTS,
                home=False,
                split=True,
            )
            if plan.files:
                write_registry(target, plan.files)
        except UpskillError:
            assert not target.exists()
            return
        after = _snapshot(outer, target)
        assert after == before
        written = {p for p in target.rglob("*") if p.is_file()} if target.exists() else set()
        for path in written:
            assert path.resolve().is_relative_to(target.resolve())


SECRET_KEYS = st.sampled_from(
    ["GITHUB_TOKEN", "api_key", "Authorization", "X-Secret", "DB_PASSWORD", "token"]
)
TOKEN_SHAPED = st.one_of(
    st.from_regex(r"ghp_[A-Za-z0-9]{36}", fullmatch=True),
    st.from_regex(r"sk-ant-[A-Za-z0-9_-]{24,40}", fullmatch=True),
    st.from_regex(r"xoxb-[0-9]{10,12}-[A-Za-z0-9]{16,24}", fullmatch=True),
    st.from_regex(r"AKIA[0-9A-Z]{16}", fullmatch=True),
    st.from_regex(r"[A-Za-z]{16}[0-9]{16}", fullmatch=True),
)
ANY_SECRET = st.from_regex(r"[A-Za-z0-9+/=._~-]{12,40}", fullmatch=True)
PLAIN_KEYS = st.sampled_from(["LOG_LEVEL", "X-Team", "REGION", "mode"])


@SETTINGS
@given(
    keyed=st.lists(st.tuples(SECRET_KEYS, ANY_SECRET), min_size=1, max_size=3),
    shaped=st.lists(st.tuples(PLAIN_KEYS, TOKEN_SHAPED), max_size=2),
    scheme=st.sampled_from(["", "Bearer ", "token "]),
    where=st.sampled_from(["claude", "vscode", "opencode", "codex", "cursor"]),
)
def test_import_never_copies_a_secret_value(
    keyed: list[tuple[str, str]], shaped: list[tuple[str, str]], scheme: str, where: str
) -> None:
    values = dict(shaped) | {k: scheme + v for k, v in keyed}
    secrets = [v for _, v in keyed] + [v for _, v in shaped]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        env = {k: v for k, v in values.items() if "-" not in k}
        headers = values
        if where == "codex":
            lines = ['[mcp_servers.local]\ncommand = "run"\n[mcp_servers.local.env]\n']
            lines += [f"{json.dumps(k)} = {json.dumps(v)}\n" for k, v in env.items()]
            lines += ['[mcp_servers.remote]\nurl = "https://x.example"\n']
            lines += ["[mcp_servers.remote.http_headers]\n"]
            lines += [f"{json.dumps(k)} = {json.dumps(v)}\n" for k, v in headers.items()]
            _put(root, ".codex/config.toml", "".join(lines))
        else:
            local = {"command": "run", "env": env}
            remote = {"type": "http", "url": "https://x.example", "headers": headers}
            if where == "opencode":
                local = {"type": "local", "command": ["run"], "environment": env}
                remote = {"type": "remote", "url": "https://x.example", "headers": headers}
            files = {
                "claude": (".mcp.json", "mcpServers"),
                "vscode": (".vscode/mcp.json", "servers"),
                "opencode": ("opencode.json", "mcp"),
                "cursor": (".cursor/mcp.json", "mcpServers"),
            }
            rel, key = files[where]
            _put(root, rel, json.dumps({key: {"local": local, "remote": remote}}))
        plan = plan_import(
            Places(root, root / "home", root / "home" / ".config"), (where,), home=False
        )
        output = b"".join(f.data for f in plan.files if isinstance(f.data, bytes))
        output += "".join(n.message for n in plan.notes).encode()
        for secret in secrets:
            assert secret.encode() not in output
