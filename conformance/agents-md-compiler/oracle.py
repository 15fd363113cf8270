"""Freeze the reference's answers for its pure functions (run by generate.py).

Runs inside the reference interpreter with the reference wheel as argv[1]; prints
one JSON document: a list of cases per function, inputs drawn from a seeded
generator, each with the reference's answer. The replay property tests feed the
same inputs to ctxkit. Answers record only observable results (bytes, values, or
which state an input is refused with), never the reference's internals.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, sys.argv[1])

from agents_md_compiler import errors, lockfile, manifest, paths, rendering, sources
from agents_md_compiler.models import (
    BundleLock,
    LockedModule,
    ModuleSpec,
    SourceSnapshot,
)

RNG = random.Random(20260101)
ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789-"
TEXT_CHARS = "abc XYZ-_/.~é中\t\\\"'`#*<>!\u2028"


def ident() -> str:
    return RNG.choice("abcdefghij") + "".join(
        RNG.choice(ALPHABET) for _ in range(RNG.randint(0, 12))
    )


def hexdigest() -> str:
    return hashlib.sha256(str(RNG.random()).encode()).hexdigest()


def text(max_len: int = 20) -> str:
    return "".join(RNG.choice(TEXT_CHARS) for _ in range(RNG.randint(1, max_len)))


def lock_cases() -> list[dict[str, object]]:
    cases = []
    for _ in range(150):
        modules = [
            {
                "id": ident(),
                "source": text(),
                "sha256": hexdigest(),
                "size_bytes": RNG.randint(1, 10**9),
            }
            for _ in range(RNG.randint(1, 5))
        ]
        fmt = RNG.choice([1, 2, 2])
        lock = BundleLock(
            bundle_id=ident(),
            format_version=fmt,
            manifest_sha256=hexdigest(),
            modules=tuple(LockedModule(**m) for m in modules),
        )
        data = lockfile.serialize_lock(lock)
        cases.append(
            {
                "bundle_id": lock.bundle_id,
                "format_version": fmt,
                "manifest_sha256": lock.manifest_sha256,
                "modules": modules,
                "bytes": data.decode("ascii"),
            }
        )
    return cases


def lock_parse_cases() -> list[dict[str, object]]:
    cases = []
    good = {
        "bundle_id": "team-rules",
        "format_version": 2,
        "manifest_sha256": "a" * 64,
        "modules": [{"id": "core", "sha256": "b" * 64, "size_bytes": 3, "source": "m.md"}],
    }
    mutations = [
        lambda d: d.update(format_version=True),
        lambda d: d.update(format_version=1),
        lambda d: d.update(format_version="2"),
        lambda d: d.update(extra=None),
        lambda d: d.pop("bundle_id"),
        lambda d: d.update(bundle_id="X"),
        lambda d: d.update(manifest_sha256="A" * 64),
        lambda d: d.update(modules=[]),
        lambda d: d.update(modules={}),
        lambda d: d["modules"][0].update(size_bytes=0),
        lambda d: d["modules"][0].update(size_bytes=True),
        lambda d: d["modules"][0].update(source=""),
        lambda d: d["modules"][0].update(resolved_source="/x"),
        lambda d: d["modules"][0].pop("sha256"),
        lambda d: d["modules"].append("x"),
        lambda d: d["modules"][0].update(id="9"),
        lambda d: None,
    ]
    for _ in range(120):
        doc = json.loads(json.dumps(good))
        for mutate in RNG.sample(mutations, RNG.randint(0, 2)):
            mutate(doc)
        raw = json.dumps(doc, sort_keys=RNG.random() < 0.5).encode()
        if RNG.random() < 0.1:
            raw = raw[: RNG.randint(0, len(raw))]
        try:
            parsed = lockfile.parse_lock(raw)
            answer: object = {
                "format_version": parsed.format_version,
                "bundle_id": parsed.bundle_id,
                "modules": [[m.id, m.source, m.sha256, m.size_bytes] for m in parsed.modules],
            }
        except errors.LockError:
            answer = "INVALID_LOCK"
        cases.append({"input": raw.decode("utf-8", "replace"), "answer": answer})
    return cases


def render_cases() -> list[dict[str, object]]:
    cases = []
    for _ in range(80):
        mods = []
        for index in range(RNG.randint(1, 4)):
            body = ("\n".join(text(30) for _ in range(RNG.randint(1, 4))) + "\n").encode()
            mods.append({"id": f"{ident()}{index}", "content": body.decode()})
        snapshots = tuple(
            SourceSnapshot(
                id=m["id"],
                lexical_source="m.md",
                resolved_source=Path("/m.md"),
                data=m["content"].encode(),
                sha256=hashlib.sha256(m["content"].encode()).hexdigest(),
                size_bytes=len(m["content"].encode()),
            )
            for m in mods
        )
        bundle_id, manifest_sha, lock_sha = ident(), hexdigest(), hexdigest()
        rendered = rendering.render_bundle(
            bundle_id=bundle_id,
            manifest_sha256=manifest_sha,
            lock_sha256=lock_sha,
            snapshots=snapshots,
        )
        cases.append(
            {
                "bundle_id": bundle_id,
                "manifest_sha256": manifest_sha,
                "lock_sha256": lock_sha,
                "modules": mods,
                "sha256": rendered.sha256,
                "size": rendered.size_bytes,
            }
        )
    return cases


def header_cases() -> list[dict[str, object]]:
    cases = []
    pieces = [
        "# Agent Instructions",
        "# Global Agent Instructions",
        "",
        "\n",
        "<!-- agents-md-compiler:generated format=2 -->",
        "<!-- agents-md-compiler:generated format=1 -->",
        "<!-- agents-md-compiler:generated format=0 -->",
        "<!-- agents-md-compiler:generated format=02 -->",
        "<!-- agents-md-compiler:generated format=1234567890 -->",
        "x",
        "é",
        "\r",
        "<!-- agents-md-compiler:generated format=2 --> ",
    ]
    for _ in range(200):
        lines = [RNG.choice(pieces) for _ in range(RNG.randint(0, 5))]
        data = "\n".join(lines).encode()
        if RNG.random() < 0.1:
            data = b"x" * RNG.randint(400, 520) + data
        cases.append({"input": data.decode(), "answer": rendering.declared_format(data)})
    return cases


def source_cases() -> list[dict[str, object]]:
    cases = []
    chunks = [
        b"a",
        b"\n",
        b"\n\n",
        b"\r",
        b"\x00",
        b"\xef\xbb\xbf",
        b"\xff",
        b"\xc3\xa9",
        b"<!-- agents-md-compiler:",
        b"<!-- agents",
        b" ",
        b"# T",
    ]
    with tempfile.TemporaryDirectory() as temp:
        path = Path(temp, "m.md")
        for _ in range(200):
            data = b"".join(RNG.choice(chunks) for _ in range(RNG.randint(0, 6)))
            path.write_bytes(data)
            spec = ModuleSpec(id="core", lexical_source="m.md", source=path)
            try:
                sources.read_source(spec)
                answer = "ok"
            except errors.SourceError as exc:
                answer = exc.problem.name
            cases.append({"input": data.decode("latin-1"), "answer": answer})
    return cases


def manifest_cases() -> list[dict[str, object]]:
    cases = []
    lines = [
        "schema_version = 1",
        'bundle_id = "team"',
        'default_target = "out/AGENTS.md"',
        "[[modules]]",
        'id = "core"',
        'source = "m/core.md"',
        'id = "x"',
        'source = "m/x.md"',
        'source = "~/a.md"',
        'source = "../up.md"',
        'default_target = "~/.codex/AGENTS.md"',
        "schema_version = 1.0",
        'bundle_id = "Team"',
        "extra = 1",
        "[modules]",
        "a.b.c = 1",
        'source = "m//core.md"',
        'source = "/abs/./x.md"',
        'id = "core"',
        "modules = []",
        'bundle_id = " "',
        'default_target = "  "',
        "[[modules]]",
    ]
    with tempfile.TemporaryDirectory() as temp:
        base = Path(temp, "bundle")
        base.mkdir()
        path = base / "agents-md.toml"
        saved = os.environ.get("HOME")
        os.environ["HOME"] = "/home/oracle"
        try:
            for _ in range(250):
                chosen = lines[:3] + ["[[modules]]", 'id = "core"', 'source = "m/core.md"']
                for _ in range(RNG.randint(0, 4)):
                    chosen.insert(RNG.randint(0, len(chosen)), RNG.choice(lines))
                if RNG.random() < 0.3:
                    del chosen[RNG.randrange(len(chosen))]
                doc = "\n".join(chosen) + "\n"
                path.write_text(doc)
                try:
                    parsed = manifest.load_manifest(path)
                    answer: object = {
                        "bundle_id": parsed.bundle_id,
                        "default_target": str(parsed.default_target).replace(str(base), "$BASE"),
                        "modules": [
                            [m.id, m.lexical_source, str(m.source).replace(str(base), "$BASE")]
                            for m in parsed.modules
                        ],
                    }
                except errors.ManifestError:
                    answer = "INVALID_MANIFEST"
                cases.append({"input": doc, "answer": answer})
        finally:
            if saved is not None:
                os.environ["HOME"] = saved
    return cases


def resolve_cases() -> list[dict[str, object]]:
    cases = []
    parts = ["a", "..", ".", "", "~", "~/", "b c", "$HOME", "é", "/", "//"]
    os.environ["HOME"] = "/home/oracle"
    for _ in range(150):
        value = "".join(RNG.choice(parts) + RNG.choice(["/", ""]) for _ in range(RNG.randint(1, 5)))
        if not value:
            continue
        base = RNG.choice(["/work", "/work/sub", "/"])
        cases.append(
            {"base": base, "value": value, "answer": str(paths.resolve_against(Path(base), value))}
        )
    return cases


print(
    json.dumps(
        {
            "home": "/home/oracle",
            "serialize_lock": lock_cases(),
            "parse_lock": lock_parse_cases(),
            "render": render_cases(),
            "declared_format": header_cases(),
            "source": source_cases(),
            "manifest": manifest_cases(),
            "resolve": resolve_cases(),
        },
        indent=0,
        sort_keys=True,
    )
)
