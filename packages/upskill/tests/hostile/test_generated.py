"""Generated hostile input (issue 13 and 24, "Tests that keep it so").

Two layers. Fuzz targets drive each parser in process for a bounded number of examples:
whatever the bytes, it returns a value or raises its own `UpskillError`, never anything
else. End-to-end, generated hostile lockfiles and registries run through the real CLI in
a temporary project and HOME (some project paths upskill edits linked to the user's
secrets), and four invariants must hold: no traceback (exit 0, 1 or 2 and no "internal
error"), nothing outside the places upskill may write changes (the canary: `.git/`, HOME
but for upskill's cache and state, a secret beside the project), no control character
from the data reaches the terminal, and no byte of a file outside the scope reaches a
project file or the terminal.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import pytest
from hostile_state import Canary, sha256
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from upskill import jsonc
from upskill.errors import UpskillError
from upskill.format.bundles import parse_bundle
from upskill.format.frontmatter import split_frontmatter
from upskill.format.yamlio import load_yaml
from upskill.state.lockfile import parse_lockfile

PATH = Path("x/SKILL.md")
YAML_PIECES = [
    "a: 1\n", "&a [*a]\n", "b: &x [1, 2]\nc: [*x, *x]\n", "!!binary aGk=\n", "!!int x\n",
    "d: 2024-02-30\n", "[" * 300, "]" * 300, "{", "}", "? ", ": ", "- ", "'", '"', "\\",
    "\x1b]52;c;eA==\x07", "\t", "\r", "%YAML 1.1\n", "--- ", "...\n", "!!python/object:os.system\n",
    "key: " + "9" * 5000 + "\n", "<<: *x\n", "\u2028", "\x00",
]  # fmt: skip
JSON_PIECES = [
    "{", "}", "[", "]", ",", ":", '"schema"', "1", '"items"', '"outputs"', '"mcps"',
    '"path"', '"../x"', '".git/HEAD"', "null", "true", "1e999", "9" * 5000, '"\\ud800"',
    "//c\n", "/*", "*/", " ", "\n", '"\x1b[2J"',
]  # fmt: skip

fuzz = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _only_upskill_errors(call: object, *args: object) -> None:
    with contextlib.suppress(UpskillError):
        call(*args)  # type: ignore[operator]


# Warnings are errors here: a parser's own warning (ruamel's `ReusedAnchorWarning` for
# the anchors the pieces repeat) would reach the user's terminal as a raw Python warning.
@pytest.mark.filterwarnings("error")
@fuzz
@given(st.lists(st.sampled_from(YAML_PIECES), max_size=12), st.text(max_size=40))
@example([YAML_PIECES[2]] * 2, "")  # `&x` defined twice: an error, not a warning
def test_fuzz_yaml_and_frontmatter(pieces: list[str], noise: str) -> None:
    text = "".join(pieces) + noise
    _only_upskill_errors(load_yaml, text, PATH)
    _only_upskill_errors(split_frontmatter, f"---\n{text}\n---\nbody\n", PATH)
    _only_upskill_errors(parse_bundle, text, Path("x.bundle.yaml"))


@fuzz
@given(st.lists(st.sampled_from(JSON_PIECES), max_size=30), st.binary(max_size=20))
def test_fuzz_lockfile_and_jsonc(pieces: list[str], noise: bytes) -> None:
    text = "".join(pieces)
    _only_upskill_errors(parse_lockfile, text.encode(errors="surrogatepass") + noise, PATH)
    _only_upskill_errors(jsonc.loads, text)
    deep = '{"a": ' + "[" * 5000 + "]" * 5000 + "}"
    _only_upskill_errors(jsonc.loads, deep)


CLAIMS = [
    ".git/HEAD", ".git/hooks/post-commit", "../outside/secret.txt", "/etc/hostname",
    ".claude/rules/style.md", "CLAUDE.md", "README.md", ".claude/../.git/HEAD",
    ".claude/rules/.git/x", ".GIT/HEAD", "\x1b]8;;x\x1b\\.md",
]  # fmt: skip
SCOPES = [None, "project", "user"]


@st.composite
def hostile_lockfiles(draw: st.DrawFn) -> dict[str, object]:
    outputs = [
        {
            "path": draw(st.sampled_from(CLAIMS)),
            "sha256": draw(st.sampled_from(["0" * 64, "f" * 64])),
            "size": draw(st.integers(0, 50)),
            "owners": ["rule:style@claude"],
        }
        for _ in range(draw(st.integers(0, 3)))
    ]
    mcps = [
        {
            "name": draw(st.sampled_from(["db", "--scope", "a b", "\x1b[2J"])),
            "client": draw(st.sampled_from(["claude", "copilot", "vscode", "opencode"])),
            "bundle": "b",
            "status": "installed",
            **({"scope": s} if (s := draw(st.sampled_from(SCOPES))) else {}),
        }
        for _ in range(draw(st.integers(0, 2)))
    ]
    source = draw(st.sampled_from(["local:/gone", "local:/gone\x1b]52;c;eA==\x07", "github:a/b"]))
    return {
        "schema": 1,
        "items": [{"kind": "rule", "name": "style", "source": source, "clients": ["claude"]}],
        "bundles": [],
        "mcps": mcps,
        "outputs": outputs,
    }


COMMANDS = [
    ("update",),
    ("remove", "style"),
    ("doctor",),
    ("list",),
    ("remove-mcp", "db"),
    ("add",),
]
# Project paths upskill reads or edits, linked to the user's secrets outside the scope.
LINKS = [".mcp.json", "opencode.json", ".vscode/mcp.json", "CLAUDE.md", ".claude/rules/commits.md"]


def _inert(text: str) -> bool:
    return not any((ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) < 0xA0 for c in text)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    lock=hostile_lockfiles(),
    argv=st.sampled_from(COMMANDS),
    links=st.lists(st.sampled_from(LINKS), unique=True, max_size=3),
)
def test_generated_lockfiles_keep_the_invariants(
    cli,
    registry: Path,
    tmp_path_factory: pytest.TempPathFactory,
    lock: dict[str, object],
    argv: tuple[str, ...],
    links: list[str],
) -> None:  # type: ignore[no-untyped-def]
    base = tmp_path_factory.mktemp("gen")
    project = base / "project"
    (project / ".claude" / "rules").mkdir(parents=True)
    canary = Canary.plant(project, cli.home)
    (project / "AGENTS.md").write_text("# team\n")
    for i, rel in enumerate(links):
        target = cli.home / ".ssh" / "id_rsa" if i % 2 else canary.outside / "secret.txt"
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).symlink_to(target)
    if argv == ("add",):
        argv = ("add", str(registry))
    (project / ".claude" / "rules" / "style.md").write_text("mine\n")
    for entry in lock["outputs"]:  # type: ignore[attr-defined]
        if entry["path"] == ".git/HEAD":
            entry["sha256"] = sha256((project / ".git" / "HEAD").read_bytes())
    (project / ".upskill-lock.json").write_text(json.dumps(lock))
    out = cli.run(*argv, cwd=project, extra={"PATH": "/usr/bin:/bin"})
    assert out.returncode in (0, 1, 2), out.stderr
    assert "internal error" not in out.stderr and "Traceback" not in out.stderr
    assert _inert(out.stdout + out.stderr), out.stdout + out.stderr
    canary.assert_untouched()
    canary.assert_no_secret_in_project(out.stdout, out.stderr)


JOURNAL_PIECES = [
    "{", "}", "[", "]", ",", ":", '"version"', "2", "1", '"root"', '"ops"', '"op"',
    '"write"', '"remove"', '"path"', '"staged"', '"0"', '"tree/.git/HEAD"', '".git/HEAD"',
    '"../x"', '"lockfile"', '"/etc/passwd"', '"sha256"', '"' + "0" * 64 + '"', '"staging"',
    "null", "[" * 3000, "9" * 5000,
]  # fmt: skip


@fuzz
@given(st.lists(st.sampled_from(JOURNAL_PIECES), max_size=30), st.binary(max_size=16))
def test_fuzz_journal_replay(
    tmp_path_factory: pytest.TempPathFactory, pieces: list[str], noise: bytes
) -> None:
    """Whatever this user's journal holds, a replay raises `JournalError` or does nothing
    outside the client trees: `.git/` and a file beside the project stay as they were."""
    from upskill.lifecycle.journal import recover

    base = tmp_path_factory.mktemp("journal")
    root = base / "project"
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (base / "secret").write_text("s\n")
    (root / ".upskill" / "txn").mkdir(parents=True)
    (root / ".upskill" / "txn" / "0").write_text("staged\n")
    state = base / "state"
    state.mkdir(mode=0o700)
    (state / "journal.json").write_bytes("".join(pieces).encode() + noise)
    os.chmod(state / "journal.json", 0o600)
    with contextlib.suppress(UpskillError):
        recover(root, root / ".upskill-lock.json", state=state)
    assert (root / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n"
    assert sorted(p.name for p in (root / ".git").iterdir()) == ["HEAD"]
    assert (base / "secret").read_text() == "s\n"
