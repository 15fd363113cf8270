"""Generated hostile manifests, and bounded fuzzing of the parsers.

Three invariants hold for every generated manifest and every command:

1. no exception escapes the CLI: each run ends in one documented exit code, and in
   JSON mode in exactly one envelope;
2. no path outside the scope changes: the whole sandbox (a canary tree of the
   user's files, the temp HOME, everything) is snapshotted before and after, and
   only the bundle's own outputs may differ: the lock, the declared target when
   it was absent or managed (a manifest is trusted to name its target), and the
   tool's state directory;
3. nothing of the user's changes: the canary files, the sources, the manifest and
   any unmanaged file keep their bytes and modes.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from agents_md_compiler.errors import LockError, ManifestError, ReceiptError
from agents_md_compiler.lockfile import parse_lock
from agents_md_compiler.manifest import parse_manifest
from agents_md_compiler.models import PathPair
from agents_md_compiler.receipts import load_install_receipt

CANARY = "# The user's own file\n\nNot generated; must never change.\n"
MODULE = "# Rules\n\nAlways run the full test suite before handing work back.\n"

TARGETS = [
    "out/AGENTS.md",
    "out/NEW.md",
    "~/canary/keep.md",
    "../home/canary/keep.md",
    "{ROOT}/home/canary/keep.md",
    "~/canary/secret.md",
    "~/.ssh/authorized_keys",
    "link-to-canary",
    "pipe",
    "out",
    "modules/a.md",
    "missing-dir/AGENTS.md",
    "out/AG\\u0000ENTS.md",
    "",
    "   ",
]
SOURCES = [
    "modules/a.md",
    "modules/b.md",
    "~/canary/secret.md",
    "../home/canary/secret.md",
    "~/.ssh/id_rsa",
    "link-to-secret",
    "pipe",
    "modules",
    "missing.md",
    "modules/a\\u0000.md",
    "modules/../modules/a.md",
    "x" * 300,
]
GARBAGE = [
    "",
    "extra = 1\n",
    "a = " + "[" * 40 + "]" * 40 + "\n",
    ".".join(["k"] * 80) + " = 1\n",
    "schema_version = 2\n",
    "[modules]\n",
    'bundle_id = "dup"\n',
    "\x00\n",
    "= = =\n",
    '"""\n',
]


def ids() -> st.SearchStrategy[str]:
    return st.one_of(st.from_regex(r"\A[a-z][a-z0-9-]{0,8}\Z"), st.sampled_from(["", "X", "9a"]))


@st.composite
def manifests(draw: st.DrawFn) -> str:
    bundle_id = draw(ids())
    target = draw(st.sampled_from(TARGETS))
    text = f'schema_version = 1\nbundle_id = "{bundle_id}"\ndefault_target = "{target}"\n'
    text += draw(st.sampled_from(GARBAGE)) if draw(st.booleans()) else ""
    for _ in range(draw(st.integers(0, 3))):
        source = draw(st.sampled_from(SOURCES))
        text += f'\n[[modules]]\nid = "{draw(ids())}"\nsource = "{source}"\n'
    return text


COMMANDS = [
    ["validate"],
    ["check"],
    ["status"],
    ["lock", "--check"],
    ["render", "--locked"],
    ["install"],
    ["lock"],
    ["install", "--apply"],
    ["rollback", "--receipt", "{ROOT}/nope.json"],
]


def build(root: Path, manifest_text: str) -> None:
    for directory in ("work/modules", "work/out", "home/canary", "home/.ssh"):
        (root / directory).mkdir(parents=True)
    (root / "work/modules/a.md").write_text(MODULE)
    (root / "work/modules/b.md").write_text(MODULE.replace("Always", "Never skip"))
    (root / "home/canary/keep.md").write_text(CANARY)
    (root / "home/canary/secret.md").write_text(CANARY.replace("own", "secret"))
    (root / "home/.ssh/id_rsa").write_text("-----BEGIN KEY-----\nnot a real key\n")
    (root / "home/.ssh/authorized_keys").write_text("ssh-ed25519 AAAA user@host\n")
    (root / "work/link-to-canary").symlink_to(root / "home/canary/keep.md")
    (root / "work/link-to-secret").symlink_to(root / "home/canary/secret.md")
    os.mkfifo(root / "work/pipe")
    (root / "work/agents-md.toml").write_text(manifest_text.replace("{ROOT}", str(root)))


def snapshot(root: Path) -> dict[str, str]:
    tree: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath, name)
            info = path.lstat()
            if stat.S_ISREG(info.st_mode):
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
            elif stat.S_ISLNK(info.st_mode):
                digest = "link:" + os.readlink(path)
            else:
                digest = "type:" + oct(stat.S_IFMT(info.st_mode))
            tree[str(path.relative_to(root))] = f"{oct(info.st_mode)} {digest}"
    return tree


STATE = "home/.local/state/agents-md-compiler"


def allowed_change(rel: str, declared_target: str | None) -> bool:
    if rel in ("home/.local", "home/.local/state") or rel.startswith(STATE):
        return True  # the tool's own state directory, and the directories leading to it
    if rel == "work/agents-md.toml.lock.json":
        return True
    return declared_target is not None and rel == declared_target


def declared(root: Path, before: dict[str, str]) -> str | None:
    """The target an install may write: the manifest's, if it was absent or managed."""
    try:
        from agents_md_compiler.manifest import load_manifest

        pair = PathPair(str(root / "work/agents-md.toml"), str(root / "work/agents-md.toml"))
        manifest = load_manifest(pair, {"HOME": str(root / "home")})
    except Exception:  # an invalid manifest can write nothing anywhere
        return None
    rel = os.path.relpath(manifest.default_target_resolved, root)
    if rel in before and "agents-md-compiler:generated" not in _head(root / rel):
        return None  # an existing unmanaged file: never replaced without adoption flags
    return rel


def _head(path: Path) -> str:
    """The start of a regular file; anything else (the FIFO above all) reads as empty.

    Opening the FIFO for reading would block this test forever, which is how a
    valid manifest naming ``pipe`` as its target once hung the suite.
    """
    if not stat.S_ISREG(path.lstat().st_mode):
        return ""
    try:
        return path.read_bytes()[:200].decode("utf-8", "replace")
    except OSError:
        return ""


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(manifest_text=manifests(), fmt=st.sampled_from(["text", "json"]))
@example(  # a valid manifest whose target is the FIFO: the run must refuse it, not block
    manifest_text='schema_version = 1\nbundle_id = "a"\ndefault_target = "pipe"\n'
    '\n[[modules]]\nid = "a"\nsource = "modules/a.md"\n',
    fmt="text",
)
def test_hostile_manifests_keep_the_invariants(make_workspace, manifest_text, fmt) -> None:  # type: ignore[no-untyped-def]
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp)
        (root / "ws").mkdir()
        ws = make_workspace(root / "ws")
        ws.env.pop("XDG_STATE_HOME")
        ws.env["HOME"] = str(root / "home")
        build(root, manifest_text)
        before = snapshot(root)
        target = declared(root, before)
        for argv in COMMANDS:
            words = [w.replace("{ROOT}", str(root)) for w in argv]
            result = ws.run(*words, "--format", fmt, cwd=root / "work")
            assert result.code in (0, 1, 2, 3), (argv, result)
            assert "Traceback" not in result.stderr
            if fmt == "json":
                assert result.json["command"] == argv[0]
        after = snapshot(root)
        for rel in sorted(set(before) | set(after)):
            if before.get(rel) != after.get(rel):
                assert allowed_change(rel, target), (rel, manifest_text, before.get(rel))
        for rel in (
            "home/canary/keep.md",
            "home/canary/secret.md",
            "home/.ssh/id_rsa",
            "home/.ssh/authorized_keys",
            "work/modules/a.md",
            "work/agents-md.toml",
        ):
            if rel != target:
                assert before[rel] == after[rel], rel  # fmt: skip


# --- bounded fuzzing of every parser (seconds, fixed example counts) --------------

TOML_PIECES = st.sampled_from(
    ["[", "]", "{", "}", "=", ".", '"', "'", '"""', "\n", "#", " ", "a", "1", "1.5", "true",
     "[[modules]]", "schema_version", "\\u0000", "\\", ",", "modules", "id", "source"]
)  # fmt: skip


@settings(max_examples=300, deadline=2000)
@given(pieces=st.lists(TOML_PIECES, max_size=60), noise=st.binary(max_size=40))
def test_fuzz_manifest_parser(pieces: list[str], noise: bytes) -> None:
    pair = PathPair("/fuzz/agents-md.toml", "/fuzz/agents-md.toml")
    for data in ("".join(pieces).encode(), noise, "".join(pieces).encode() + noise):
        with contextlib.suppress(ManifestError):
            parse_manifest(data, pair, {"HOME": "/home/fuzz"})


JSON_PIECES = st.sampled_from(
    ["{", "}", "[", "]", ":", ",", '"', "1", "1e999", "-0", "null", "true", '"modules"',
     '"format_version"', '"bundle_id"', '"a"', "\\u0000", " ", "9" * 50]
)  # fmt: skip


@settings(max_examples=300, deadline=2000)
@given(pieces=st.lists(JSON_PIECES, max_size=60), depth=st.integers(0, 3000))
def test_fuzz_lock_and_receipt_parsers(tmp_path_factory, pieces: list[str], depth: int) -> None:  # type: ignore[no-untyped-def]
    pair = PathPair("/fuzz/lock.json", "/fuzz/lock.json")
    text = "[" * depth + "".join(pieces) + "]" * depth
    with contextlib.suppress(LockError):
        parse_lock(text.encode(), pair)
    receipt = tmp_path_factory.mktemp("receipt") / "r.json"
    receipt.write_text(text)
    with contextlib.suppress(ReceiptError):
        load_install_receipt(PathPair(str(receipt), str(receipt)), 1 << 20)
