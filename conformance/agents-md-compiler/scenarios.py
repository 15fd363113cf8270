"""The generated scenario corpus: worlds (sandbox states) crossed with commands and formats.

Every scenario is plain data (see harness.py). Manifests never embed the sandbox
root, so digests in the output are the same for every run of the same scenario.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

Action = dict[str, Any]

CORE = "# Core\n\nAlways run the full test suite before handing work back for review.\n"
STYLE = "# Style\n\nPrefer small functions whose names say exactly what they compute.\n"
EXTRA = "# Extra\n\nWrite the failing test first, then the smallest change that passes it.\n"


def manifest(
    *,
    bundle_id: str = "team-rules",
    target: str = "out/AGENTS.md",
    modules: list[tuple[str, str]] | None = None,
    extra: str = "",
) -> str:
    mods = (
        modules
        if modules is not None
        else [("core", "modules/core.md"), ("style", "modules/style.md")]
    )
    text = f'schema_version = 1\nbundle_id = "{bundle_id}"\ndefault_target = "{target}"\n{extra}'
    for module_id, source in mods:
        text += f'\n[[modules]]\nid = "{module_id}"\nsource = "{source}"\n'
    return text


def write(path: str, text: str, mode: str = "0644") -> Action:
    return {"op": "write", "path": path, "text": text, "mode": mode}


def write_bytes(path: str, data: bytes, mode: str = "0644") -> Action:
    return {"op": "write", "path": path, "b64": base64.b64encode(data).decode(), "mode": mode}


def run(*argv: str, cwd: str = "work", env: dict[str, str | None] | None = None) -> Action:
    action: Action = {"op": "run", "argv": list(argv), "cwd": cwd}
    if env:
        action["env"] = env
    return action


def bundle(text: str | None = None, name: str = "work/agents-md.toml") -> list[Action]:
    return [
        write(name, manifest() if text is None else text),
        write("work/modules/core.md", CORE),
        write("work/modules/style.md", STYLE),
        {"op": "mkdir", "path": "work/out"},
    ]


LOCK = run("lock", "--quiet")
INSTALL = run("install", "--apply", "--quiet")
FORMATS = ("text", "json")

# --- worlds: action lists that leave the sandbox in one state -------------------

UNMANAGED = "# My own notes\n\nHand-written, not generated.\n"
V1_TARGET_HEAD = (
    "# Global Agent Instructions\n\n<!-- agents-md-compiler:generated format=1 -->\n"
    "<!-- bundle-id: team-rules -->\n"
)
V7_TARGET_HEAD = "# Agent Instructions\n\n<!-- agents-md-compiler:generated format=7 -->\nx\n"
CRLF_HEAD = "# Agent Instructions\r\n\r\n<!-- agents-md-compiler:generated format=2 -->\r\nx\r\n"


def worlds() -> dict[str, list[Action]]:
    """Read-only worlds: every read command is run against each of them."""
    w: dict[str, list[Action]] = {}
    w["lock-missing"] = bundle()
    w["current"] = [*bundle(), LOCK, INSTALL]
    w["missing-target"] = [*bundle(), LOCK]
    w["drifted"] = [
        *bundle(),
        LOCK,
        INSTALL,
        {"op": "append", "path": "work/out/AGENTS.md", "text": "edited\n"},
    ]
    w["stale-source"] = [
        *bundle(),
        LOCK,
        INSTALL,
        {"op": "append", "path": "work/modules/core.md", "text": "More.\n"},
    ]
    w["stale-manifest-comment"] = [
        *bundle(),
        LOCK,
        {"op": "append", "path": "work/agents-md.toml", "text": "# note\n"},
    ]
    w["lock-invalid-json"] = [*bundle(), write("work/agents-md.toml.lock.json", "{not json\n")]
    w["lock-unknown-key"] = [
        *bundle(),
        LOCK,
        {"op": "edit-json", "path": "work/agents-md.toml.lock.json", "set": {"extra": 1}},
    ]
    w["lock-bad-format"] = [
        *bundle(),
        LOCK,
        {"op": "edit-json", "path": "work/agents-md.toml.lock.json", "set": {"format_version": 3}},
    ]
    w["lock-noncanonical"] = [
        *bundle(),
        LOCK,
        {
            "op": "edit-json",
            "path": "work/agents-md.toml.lock.json",
            "set": {"bundle_id": "team-rules"},
        },
        {"op": "append", "path": "work/agents-md.toml.lock.json", "text": "\n"},
    ]
    w["lock-format1"] = [
        *bundle(),
        LOCK,
        {"op": "edit-json", "path": "work/agents-md.toml.lock.json", "set": {"format_version": 1}},
    ]
    w["lock-symlink"] = [
        *bundle(),
        LOCK,
        {"op": "remove", "path": "work/agents-md.toml.lock.json"},
        write("work/real.lock.json", "{}\n"),
        {"op": "symlink", "path": "work/agents-md.toml.lock.json", "to": "real.lock.json"},
    ]
    w["lock-directory"] = [*bundle(), {"op": "mkdir", "path": "work/agents-md.toml.lock.json"}]
    w["unmanaged"] = [*bundle(), LOCK, write("work/out/AGENTS.md", UNMANAGED)]
    w["target-format1"] = [*bundle(), LOCK, write("work/out/AGENTS.md", V1_TARGET_HEAD)]
    w["target-format7"] = [*bundle(), LOCK, write("work/out/AGENTS.md", V7_TARGET_HEAD)]
    w["target-crlf"] = [*bundle(), LOCK, write("work/out/AGENTS.md", CRLF_HEAD)]
    w["target-empty"] = [*bundle(), LOCK, write("work/out/AGENTS.md", "")]
    w["target-symlink"] = [
        *bundle(),
        LOCK,
        INSTALL,
        {"op": "remove", "path": "work/out/AGENTS.md"},
        write("work/elsewhere.md", UNMANAGED),
        {"op": "symlink", "path": "work/out/AGENTS.md", "to": "../elsewhere.md"},
    ]
    w["target-dangling-symlink"] = [
        *bundle(),
        LOCK,
        {"op": "symlink", "path": "work/out/AGENTS.md", "to": "nowhere.md"},
    ]
    w["target-fifo-symlink"] = [
        *bundle(),
        LOCK,
        {"op": "fifo", "path": "work/pipe"},
        {"op": "symlink", "path": "work/out/AGENTS.md", "to": "../pipe"},
    ]
    w["target-fifo"] = [*bundle(), LOCK, {"op": "fifo", "path": "work/out/AGENTS.md"}]
    w["target-directory"] = [*bundle(), LOCK, {"op": "mkdir", "path": "work/out/AGENTS.md"}]
    w["target-directory-stale-lock"] = [
        *w["stale-source"][:-1],
        {"op": "remove", "path": "work/out/AGENTS.md"},
        {"op": "mkdir", "path": "work/out/AGENTS.md"},
        {"op": "append", "path": "work/modules/core.md", "text": "More.\n"},
    ]
    w["target-parent-missing"] = [*bundle(manifest(target="nodir/AGENTS.md")), LOCK]
    w["target-parent-file"] = [
        *bundle(manifest(target="afile/AGENTS.md")),
        LOCK,
        write("work/afile", "x\n"),
    ]
    w["override-nonempty"] = [
        *bundle(),
        LOCK,
        INSTALL,
        write("work/out/AGENTS.override.md", "local\n"),
    ]
    w["override-empty"] = [*bundle(), LOCK, INSTALL, write("work/out/AGENTS.override.md", "")]
    w["override-stale-lock"] = [*w["stale-source"], write("work/out/AGENTS.override.md", "local\n")]
    w["override-not-agents-name"] = [
        *bundle(manifest(target="out/RULES.md")),
        LOCK,
        INSTALL,
        write("work/out/AGENTS.override.md", "local\n"),
    ]
    w["source-is-target"] = bundle(manifest(target="modules/core.md"))
    w["source-aliases-via-dotdot"] = bundle(manifest(target="out/../modules/style.md"))
    w["home-target"] = [
        *bundle(manifest(target="~/.codex/AGENTS.md")),
        {"op": "mkdir", "path": "home/.codex"},
        LOCK,
    ]
    w["home-target-current"] = [*w["home-target"], INSTALL]
    w["absolute-home-source"] = [
        *bundle(manifest(modules=[("core", "modules/core.md"), ("home", "~/rules/home.md")])),
        write("home/rules/home.md", EXTRA),
        LOCK,
    ]
    w["dotdot-source"] = [
        *bundle(manifest(modules=[("core", "modules/core.md"), ("shared", "../shared/extra.md")])),
        write("shared/extra.md", EXTRA),
        LOCK,
        INSTALL,
    ]
    w["three-modules-current"] = [
        *bundle(
            manifest(
                modules=[
                    ("core", "modules/core.md"),
                    ("style", "modules/style.md"),
                    ("extra", "modules/extra.md"),
                ]
            )
        ),
        write("work/modules/extra.md", EXTRA),
        LOCK,
        INSTALL,
    ]
    # legacy manifest name, discovery
    w["legacy-manifest-only"] = [*bundle(name="work/global-agents.toml"), run("lock", "--quiet")]
    w["both-manifests"] = [*bundle(), write("work/global-agents.toml", manifest())]
    w["no-manifest"] = [{"op": "mkdir", "path": "work/out"}]
    w["manifest-symlink"] = [
        *bundle(name="work/real.toml"),
        {"op": "symlink", "path": "work/agents-md.toml", "to": "real.toml"},
    ]
    w["manifest-directory"] = [{"op": "mkdir", "path": "work/agents-md.toml"}]
    w["state-with-receipts"] = [
        *bundle(),
        LOCK,
        INSTALL,
        {"op": "append", "path": "work/modules/core.md", "text": "v2\n"},
        LOCK,
        INSTALL,
    ]
    w["xdg-state"] = [*bundle(), LOCK, INSTALL]
    return w


INVALID_MANIFESTS: dict[str, str] = {
    "toml-syntax": "schema_version = 1\nbundle_id = \n",
    "not-utf8": "",  # replaced with bytes below
    "unknown-top-key": manifest(extra='colour = "blue"\n'),
    "unknown-module-key": manifest().replace('id = "core"', 'id = "core"\noptional = true'),
    "schema-missing": manifest().replace("schema_version = 1\n", ""),
    "schema-bool": manifest().replace("schema_version = 1", "schema_version = true"),
    "schema-float": manifest().replace("schema_version = 1", "schema_version = 1.0"),
    "schema-string": manifest().replace("schema_version = 1", 'schema_version = "1"'),
    "schema-two": manifest().replace("schema_version = 1", "schema_version = 2"),
    "bundle-id-missing": manifest().replace('bundle_id = "team-rules"\n', ""),
    "bundle-id-upper": manifest(bundle_id="Team"),
    "bundle-id-empty": manifest(bundle_id=""),
    "bundle-id-blank": manifest(bundle_id="  "),
    "bundle-id-int": manifest().replace('bundle_id = "team-rules"', "bundle_id = 7"),
    "bundle-id-long": manifest(bundle_id="a" * 65),
    "target-missing": manifest().replace('default_target = "out/AGENTS.md"\n', ""),
    "target-blank": manifest(target=" \\t "),
    "target-array": manifest().replace(
        'default_target = "out/AGENTS.md"', 'default_target = ["a"]'
    ),
    "modules-missing": 'schema_version = 1\nbundle_id = "team-rules"\ndefault_target = "out/AGENTS.md"\n',
    "modules-empty": 'schema_version = 1\nbundle_id = "team-rules"\ndefault_target = "out/AGENTS.md"\nmodules = []\n',
    "modules-not-tables": 'schema_version = 1\nbundle_id = "team-rules"\ndefault_target = "out/AGENTS.md"\nmodules = ["a"]\n',
    "modules-table": 'schema_version = 1\nbundle_id = "team-rules"\ndefault_target = "out/AGENTS.md"\n[modules]\nid = "a"\n',
    "module-id-missing": manifest().replace('id = "core"\n', ""),
    "module-id-bad": manifest(modules=[("Core", "modules/core.md")]),
    "module-id-dup": manifest(modules=[("core", "modules/core.md"), ("core", "modules/style.md")]),
    "module-source-missing": manifest().replace('source = "modules/core.md"\n', ""),
    "module-source-blank": manifest(modules=[("core", "  ")]),
    "module-source-int": manifest().replace('source = "modules/core.md"', "source = 3"),
    "duplicate-source": manifest(
        modules=[("core", "modules/core.md"), ("again", "modules/../modules/core.md")]
    ),
    "too-many-modules": manifest(modules=[(f"m{i}", f"modules/m{i}.md") for i in range(257)]),
}

BAD_SOURCES: dict[str, bytes | None] = {
    "bom": b"\xef\xbb\xbf# Core\n",
    "nul": b"# Core\x00\n",
    "cr": b"# Core\r\nline\n",
    "not-utf8": b"# Core \xff\n",
    "no-final-lf": b"# Core",
    "double-lf": b"# Core\n\n",
    "marker": b"# Core\n<!-- agents-md-compiler:module-end id=x -->\n",
    "empty": b"",
    "duplicate-content": STYLE.encode(),
    "missing": None,
}


def scenarios() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def add(sid: str, actions: list[Action], **extra: Any) -> None:
        out.append({"id": sid, "actions": actions, **extra})

    read_commands: dict[str, list[str]] = {
        "validate": ["validate"],
        "check": ["check"],
        "status": ["status"],
        "lock-check": ["lock", "--check"],
        "render-locked": ["render", "--locked"],
        "install-dry": ["install"],
        "verify": ["verify-codex"],
    }
    for world, actions in worlds().items():
        env: dict[str, str | None] = {}
        if world == "xdg-state":
            env = {"XDG_STATE_HOME": "{ROOT}/xdg"}
        verify = world in ("current", "drifted", "lock-missing", "home-target-current", "unmanaged")
        for fmt in FORMATS:
            runs = [
                run(*argv, "--format", fmt)
                for name, argv in read_commands.items()
                if name != "verify" or verify
            ]
            add(f"world-{world}-{fmt}", [*actions, *runs], env=env)
    # invalid manifests x a few commands
    for name, text in INVALID_MANIFESTS.items():
        base = bundle(text)
        if name == "not-utf8":
            base = [
                *bundle(),
                write_bytes("work/agents-md.toml", b'schema_version = 1\nbundle_id = "\xff"\n'),
            ]
        for command in (["validate"], ["lock"], ["check"], ["install", "--apply"]):
            for fmt in FORMATS:
                add(f"manifest-{name}-{command[0]}-{fmt}", [*base, run(*command, "--format", fmt)])
    # bad sources
    for name, data in BAD_SOURCES.items():
        base = bundle()
        if data is None:
            base = [*base, {"op": "remove", "path": "work/modules/core.md"}]
        else:
            base = [*base, write_bytes("work/modules/core.md", data)]
        for command in (["lock"], ["check"], ["render"]):
            for fmt in FORMATS:
                add(f"source-{name}-{command[0]}-{fmt}", [*base, run(*command, "--format", fmt)])
    for name, extra in {
        "symlink": [
            write("work/modules/real.md", CORE),
            {"op": "remove", "path": "work/modules/core.md"},
            {"op": "symlink", "path": "work/modules/core.md", "to": "real.md"},
        ],
        "directory": [
            {"op": "remove", "path": "work/modules/core.md"},
            {"op": "mkdir", "path": "work/modules/core.md"},
        ],
        "fifo": [
            {"op": "remove", "path": "work/modules/core.md"},
            {"op": "fifo", "path": "work/modules/core.md"},
        ],
        "symlinked-parent": [
            {"op": "symlink", "path": "work/linked", "to": "modules"},
            write(
                "work/agents-md.toml",
                manifest(modules=[("core", "linked/core.md"), ("style", "modules/style.md")]),
            ),
        ],
    }.items():
        for fmt in FORMATS:
            add(f"source-{name}-lock-{fmt}", [*bundle(), *extra, run("lock", "--format", fmt)])
            add(f"source-{name}-check-{fmt}", [*bundle(), *extra, run("check", "--format", fmt)])
    out.extend(_mutations())
    out.extend(_rollbacks())
    out.extend(_render_and_init())
    out.extend(_options())
    out.extend(_codex())
    return out


def _mutations() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def add(sid: str, actions: list[Action], **extra: Any) -> None:
        out.append({"id": sid, "actions": actions, **extra})

    for fmt in FORMATS:
        add(f"lock-write-{fmt}", [*bundle(), run("lock", "--format", fmt)])
        add(f"lock-rewrite-same-{fmt}", [*bundle(), LOCK, run("lock", "--format", fmt)])
        add(
            f"lock-rewrite-stale-{fmt}",
            [
                *bundle(),
                LOCK,
                {"op": "append", "path": "work/modules/core.md", "text": "x\n"},
                run("lock", "--format", fmt),
            ],
        )
        add(
            f"lock-replace-invalid-{fmt}",
            [
                *bundle(),
                write("work/agents-md.toml.lock.json", "garbage"),
                run("lock", "--format", fmt),
            ],
        )
        add(
            f"lock-explicit-path-{fmt}",
            [*bundle(), run("lock", "--lock", "locks/x.json", "--format", fmt)],
        )
        add(
            f"lock-explicit-existing-dir-{fmt}",
            [
                *bundle(),
                {"op": "mkdir", "path": "work/locks"},
                run("lock", "--lock", "locks/x.json", "--format", fmt),
                run("check", "--lock", "locks/x.json", "--format", fmt),
            ],
        )
        add(
            f"lock-symlink-replace-{fmt}",
            [
                *bundle(),
                write("work/real.json", "{}\n"),
                {"op": "symlink", "path": "work/agents-md.toml.lock.json", "to": "real.json"},
                run("lock", "--format", fmt),
            ],
        )
        add(
            f"install-new-{fmt}",
            [
                *bundle(),
                LOCK,
                run("install", "--apply", "--format", fmt),
                run("status", "--format", fmt),
            ],
        )
        add(f"install-dry-new-{fmt}", [*bundle(), LOCK, run("install", "--format", fmt)])
        add(f"install-lock-missing-{fmt}", [*bundle(), run("install", "--apply", "--format", fmt)])
        add(f"install-lock-stale-{fmt}", [*w_stale(), run("install", "--apply", "--format", fmt)])
        add(
            f"install-reinstall-current-{fmt}",
            [
                *bundle(),
                LOCK,
                INSTALL,
                run("install", "--apply", "--format", fmt),
                run("status", "--format", fmt),
            ],
        )
        add(
            f"install-over-drifted-{fmt}",
            [
                *bundle(),
                LOCK,
                INSTALL,
                {"op": "append", "path": "work/out/AGENTS.md", "text": "x\n"},
                run("install", "--apply", "--format", fmt),
            ],
        )
        add(
            f"install-keeps-mode-{fmt}",
            [
                *bundle(),
                LOCK,
                INSTALL,
                {"op": "chmod", "path": "work/out/AGENTS.md", "mode": "0644"},
                {"op": "append", "path": "work/modules/style.md", "text": "More.\n"},
                LOCK,
                run("install", "--apply", "--format", fmt),
            ],
        )
        add(
            f"install-format1-upgrade-{fmt}",
            [
                *bundle(),
                LOCK,
                write("work/out/AGENTS.md", V1_TARGET_HEAD, "0640"),
                run("install", "--format", fmt),
                run("install", "--apply", "--format", fmt),
            ],
        )
        add(
            f"install-unmanaged-refused-{fmt}",
            [
                *bundle(),
                LOCK,
                write("work/out/AGENTS.md", UNMANAGED),
                run("install", "--apply", "--format", fmt),
            ],
        )
        add(
            f"install-unmanaged-dry-{fmt}",
            [
                *bundle(),
                LOCK,
                write("work/out/AGENTS.md", UNMANAGED),
                run("install", "--format", fmt),
            ],
        )
        add(
            f"install-replace-no-digest-{fmt}",
            [
                *bundle(),
                LOCK,
                write("work/out/AGENTS.md", UNMANAGED),
                run("install", "--apply", "--replace-unmanaged", "--format", fmt),
            ],
        )
        add(
            f"install-replace-bad-digest-{fmt}",
            [
                *bundle(),
                LOCK,
                write("work/out/AGENTS.md", UNMANAGED),
                run(
                    "install",
                    "--apply",
                    "--replace-unmanaged",
                    "--expect-target-sha256",
                    "0" * 64,
                    "--format",
                    fmt,
                ),
            ],
        )
        add(
            f"install-replace-ok-{fmt}",
            [
                *bundle(),
                LOCK,
                write("work/out/AGENTS.md", UNMANAGED, "0664"),
                run(
                    "install",
                    "--replace-unmanaged",
                    "--expect-target-sha256",
                    "{sha256:work/out/AGENTS.md}",
                    "--format",
                    fmt,
                ),
                run(
                    "install",
                    "--apply",
                    "--replace-unmanaged",
                    "--expect-target-sha256",
                    "{sha256:work/out/AGENTS.md}",
                    "--format",
                    fmt,
                ),
            ],
        )
        add(
            f"install-digest-alone-{fmt}",
            [
                *bundle(),
                LOCK,
                write("work/out/AGENTS.md", UNMANAGED),
                run(
                    "install",
                    "--apply",
                    "--expect-target-sha256",
                    "{sha256:work/out/AGENTS.md}",
                    "--format",
                    fmt,
                ),
            ],
        )
        add(
            f"install-digest-malformed-{fmt}",
            [
                *bundle(),
                LOCK,
                run(
                    "install",
                    "--replace-unmanaged",
                    "--expect-target-sha256",
                    "ABC",
                    "--format",
                    fmt,
                ),
            ],
        )
        add(
            f"install-managed-digest-mismatch-{fmt}",
            [
                *bundle(),
                LOCK,
                INSTALL,
                {"op": "append", "path": "work/out/AGENTS.md", "text": "x\n"},
                run(
                    "install",
                    "--apply",
                    "--replace-unmanaged",
                    "--expect-target-sha256",
                    "1" * 64,
                    "--format",
                    fmt,
                ),
            ],
        )
        add(
            f"install-managed-digest-match-{fmt}",
            [
                *bundle(),
                LOCK,
                INSTALL,
                {"op": "append", "path": "work/out/AGENTS.md", "text": "x\n"},
                run(
                    "install",
                    "--apply",
                    "--replace-unmanaged",
                    "--expect-target-sha256",
                    "{sha256:work/out/AGENTS.md}",
                    "--format",
                    fmt,
                ),
            ],
        )
        add(
            f"install-missing-digest-{fmt}",
            [
                *bundle(),
                LOCK,
                run(
                    "install",
                    "--apply",
                    "--replace-unmanaged",
                    "--expect-target-sha256",
                    "2" * 64,
                    "--format",
                    fmt,
                ),
            ],
        )
        add(
            f"install-symlink-target-{fmt}",
            [
                *bundle(),
                LOCK,
                write("work/elsewhere.md", UNMANAGED),
                {"op": "symlink", "path": "work/out/AGENTS.md", "to": "../elsewhere.md"},
                run("install", "--apply", "--format", fmt),
            ],
        )
        add(
            f"install-shadowed-{fmt}",
            [
                *bundle(),
                LOCK,
                write("work/out/AGENTS.override.md", "x\n"),
                run("install", "--apply", "--format", fmt),
            ],
        )
        add(
            f"install-parent-missing-{fmt}",
            [
                *bundle(manifest(target="nodir/AGENTS.md")),
                LOCK,
                run("install", "--apply", "--format", fmt),
            ],
        )
        add(
            f"install-explicit-target-{fmt}",
            [
                *bundle(),
                LOCK,
                {"op": "mkdir", "path": "work/other"},
                run("install", "--apply", "--target", "other/AGENTS.md", "--format", fmt),
                run("status", "--target", "other/AGENTS.md", "--format", fmt),
                run("status", "--format", fmt),
            ],
            digest_paths=["work/other/AGENTS.md"],
        )
        add(
            f"install-home-target-{fmt}",
            [
                *bundle(manifest(target="~/.codex/AGENTS.md")),
                {"op": "mkdir", "path": "home/.codex"},
                LOCK,
                run("install", "--apply", "--format", fmt),
                run("status", "--format", fmt),
            ],
        )
        add(
            f"install-xdg-{fmt}",
            [
                *bundle(),
                LOCK,
                run("install", "--apply", "--format", fmt),
                run("status", "--format", fmt),
            ],
            env={"XDG_STATE_HOME": "{ROOT}/xdg"},
        )
        add(
            f"install-empty-xdg-{fmt}",
            [*bundle(), LOCK, run("install", "--apply", "--format", fmt)],
            env={"XDG_STATE_HOME": ""},
        )
        add(
            f"install-target-is-lock-{fmt}",
            [
                *bundle(),
                LOCK,
                run("check", "--target", "agents-md.toml.lock.json", "--format", fmt),
            ],
            digest_paths=["work/agents-md.toml.lock.json"],
        )
        add(
            f"install-explicit-lock-{fmt}",
            [
                *bundle(),
                {"op": "mkdir", "path": "work/locks"},
                run("lock", "--lock", "locks/l.json", "--quiet"),
                run("install", "--apply", "--lock", "locks/l.json", "--format", fmt),
            ],
        )
        add(
            f"install-discovered-manifest-{fmt}",
            [
                *bundle(),
                LOCK,
                run("install", "--apply", "--format", fmt),
                run("status", "--format", fmt),
            ],
        )
        add(
            f"install-explicit-manifest-{fmt}",
            [
                *bundle(),
                {"op": "mkdir", "path": "elsewhere"},
                run("lock", "--manifest", "../work/agents-md.toml", cwd="elsewhere"),
                run(
                    "install",
                    "--apply",
                    "--manifest",
                    "../work/agents-md.toml",
                    "--format",
                    fmt,
                    cwd="elsewhere",
                ),
            ],
        )
    return out


def w_stale() -> list[Action]:
    return [*bundle(), LOCK, {"op": "append", "path": "work/modules/core.md", "text": "More.\n"}]


def _rollbacks() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def add(sid: str, actions: list[Action], **extra: Any) -> None:
        out.append({"id": sid, "actions": actions, **extra})

    created = [*bundle(), LOCK, INSTALL]
    replaced = [*bundle(), LOCK, write("work/out/AGENTS.md", V1_TARGET_HEAD, "0644"), INSTALL]
    receipt = "{receipt:install:-1}"
    for fmt in FORMATS:
        for kind, base, after in (("created", created, "status"), ("replaced", replaced, "check")):
            rollback = ["rollback", "--receipt", receipt]
            add(f"rollback-{kind}-dry-{fmt}", [*base, run(*rollback, "--format", fmt)])
            applied = run(*rollback, "--apply", "--format", fmt)
            add(f"rollback-{kind}-apply-{fmt}", [*base, applied, run(after, "--format", fmt)])
        add(
            f"rollback-twice-{fmt}",
            [
                *replaced,
                run("rollback", "--receipt", receipt, "--apply", "--quiet"),
                run("rollback", "--receipt", receipt, "--apply", "--format", fmt),
            ],
        )
        add(
            f"rollback-drifted-{fmt}",
            [
                *created,
                {"op": "append", "path": "work/out/AGENTS.md", "text": "x\n"},
                run("rollback", "--receipt", receipt, "--apply", "--format", fmt),
            ],
        )
        add(
            f"rollback-missing-receipt-{fmt}",
            [*created, run("rollback", "--receipt", "{ROOT}/nope.json", "--format", fmt)],
        )
        add(
            f"rollback-outside-root-{fmt}",
            [
                *created,
                {"op": "copy", "path": "work/r.json", "from": "{receipt:install:-1}"},
                run("rollback", "--receipt", "r.json", "--format", fmt),
            ],
        )
        add(f"rollback-no-receipt-option-{fmt}", [*created, run("rollback", "--format", fmt)])
        add(
            f"rollback-with-lock-{fmt}",
            [*created, run("rollback", "--receipt", receipt, "--lock", "x.json", "--format", fmt)],
        )
        add(
            f"rollback-of-rollback-{fmt}",
            [
                *replaced,
                run("rollback", "--receipt", receipt, "--apply", "--quiet"),
                run("rollback", "--receipt", "{receipt:rollback:-1}", "--format", fmt),
            ],
        )
        for field, value in (
            ("bundle_id", "other-bundle"),
            ("receipt_schema_version", 2),
            ("operation", "rollback"),
            ("target_path.resolved", "{ROOT}/work/out/OTHER.md"),
            ("operation_id", "XYZ"),
            ("installed.mode", "644"),
            ("backup.path", "{ROOT}/work/out/AGENTS.md"),
            ("completed_at", "yesterday"),
        ):
            base = replaced if field.startswith("backup") else created
            name = field.replace(".", "-").replace("_", "-")
            add(
                f"rollback-tampered-{name}-{fmt}",
                [
                    *base,
                    {"op": "edit-json", "path": receipt, "set": {field: value}},
                    run("rollback", "--receipt", receipt, "--format", fmt),
                ],
            )
        add(
            f"rollback-receipt-not-json-{fmt}",
            [
                *created,
                write(receipt, "nope"),
                run("rollback", "--receipt", receipt, "--format", fmt),
            ],
        )
        add(
            f"rollback-receipt-array-{fmt}",
            [
                *created,
                write(receipt, "[]"),
                run("rollback", "--receipt", receipt, "--format", fmt),
            ],
        )
        add(
            f"rollback-backup-tampered-{fmt}",
            [
                *replaced,
                write("{backup:-1}", "x\n", "0600"),
                run("rollback", "--receipt", receipt, "--apply", "--format", fmt),
            ],
        )
        add(
            f"rollback-backup-missing-{fmt}",
            [
                *replaced,
                {"op": "remove", "path": "{backup:-1}"},
                run("rollback", "--receipt", receipt, "--apply", "--format", fmt),
            ],
        )
        add(
            f"rollback-explicit-target-{fmt}",
            [
                *bundle(),
                LOCK,
                {"op": "mkdir", "path": "work/t"},
                run("install", "--apply", "--target", "t/AGENTS.md", "--quiet"),
                run("rollback", "--receipt", receipt, "--format", fmt),
                run(
                    "rollback",
                    "--receipt",
                    receipt,
                    "--target",
                    "t/AGENTS.md",
                    "--apply",
                    "--format",
                    fmt,
                ),
            ],
            digest_paths=["work/t/AGENTS.md"],
        )
        add(
            f"rollback-symlink-receipt-{fmt}",
            [
                *created,
                {
                    "op": "symlink",
                    "path": "home/.local/state/agents-md-compiler/link.json",
                    "to": receipt,
                },
                run(
                    "rollback",
                    "--receipt",
                    "{ROOT}/home/.local/state/agents-md-compiler/link.json",
                    "--format",
                    fmt,
                ),
            ],
        )
    return out


def _render_and_init() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def add(sid: str, actions: list[Action], **extra: Any) -> None:
        out.append({"id": sid, "actions": actions, **extra})

    for fmt in FORMATS:
        add(f"render-stdout-{fmt}", [*bundle(), run("render", "--format", fmt)])
        add(
            f"render-locked-ok-{fmt}", [*bundle(), LOCK, run("render", "--locked", "--format", fmt)]
        )
        add(
            f"render-output-new-{fmt}",
            [*bundle(), run("render", "--output", "out/new.md", "--format", fmt)],
        )
        add(
            f"render-output-exists-{fmt}",
            [
                *bundle(),
                write("work/out/new.md", "x"),
                run("render", "--output", "out/new.md", "--format", fmt),
            ],
        )
        add(
            f"render-output-dangling-{fmt}",
            [
                *bundle(),
                {"op": "symlink", "path": "work/out/new.md", "to": "gone"},
                run("render", "--output", "out/new.md", "--format", fmt),
            ],
        )
        add(
            f"render-output-no-parent-{fmt}",
            [*bundle(), run("render", "--output", "none/new.md", "--format", fmt)],
        )
        add(
            f"render-output-locked-stale-{fmt}",
            [*w_stale(), run("render", "--locked", "--output", "out/n.md", "--format", fmt)],
        )
        add(
            f"render-source-is-default-target-{fmt}",
            [*bundle(manifest(target="modules/core.md")), run("render", "--format", fmt)],
        )
        add(
            f"lock-source-is-default-target-{fmt}",
            [*bundle(manifest(target="modules/core.md")), run("lock", "--format", fmt)],
        )
        add(
            f"check-source-is-explicit-target-{fmt}",
            [*bundle(), LOCK, run("check", "--target", "modules/style.md", "--format", fmt)],
        )
        add(
            f"validate-source-is-explicit-target-{fmt}",
            [*bundle(), LOCK, run("validate", "--target", "modules/style.md", "--format", fmt)],
        )
        add(f"init-default-{fmt}", [run("init", "--format", fmt)])
        add(
            f"init-directory-{fmt}",
            [
                run("init", "--directory", "team", "--format", fmt),
                run("lock", "--manifest", "team/agents-md.toml", "--quiet"),
            ],
        )
        add(
            f"init-relative-target-{fmt}",
            [run("init", "--directory", "team", "--target", "out/AGENTS.md", "--format", fmt)],
        )
        add(
            f"init-absolute-target-{fmt}",
            [run("init", "--target", "{ROOT}/home/x/AGENTS.md", "--format", fmt)],
        )
        add(
            f"init-tilde-target-{fmt}",
            [run("init", "--target", "~/proj/AGENTS.md", "--format", fmt)],
        )
        add(
            f"init-codex-home-{fmt}",
            [run("init", "--format", fmt, env={"CODEX_HOME": "{ROOT}/codex"})],
        )
        add(f"init-bad-bundle-id-{fmt}", [run("init", "--bundle-id", "Bad_Id", "--format", fmt)])
        add(f"init-blank-target-{fmt}", [run("init", "--target", " ", "--format", fmt)])
        add(f"init-custom-id-{fmt}", [run("init", "--bundle-id", "my-rules", "--format", fmt)])
        add(
            f"init-existing-{fmt}",
            [write("work/agents-md.toml", "x"), run("init", "--format", fmt)],
        )
        add(
            f"init-existing-module-{fmt}",
            [write("work/modules/core.md", "x"), run("init", "--format", fmt)],
        )
    return out


FAKE_CODEX = (Path(__file__).parent / "fake_codex.py").read_text()


def _codex() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    fake = write("bin/codex", FAKE_CODEX, "0755")
    current = worlds()["current"]
    home_current = worlds()["home-target-current"]
    for mode in ("ok", "version-fail", "no-capability", "probe-fail", "not-json",
                 "drop-markers", "twice", "drop-sentinels"):  # fmt: skip
        for fmt in FORMATS:
            env = {"FAKE_CODEX_MODE": mode}
            out.append(
                {
                    "id": f"codex-{mode}-{fmt}",
                    "actions": [*current, fake, run("verify-codex", "--format", fmt, env=env)],
                }
            )
    for fmt in FORMATS:
        out.append(
            {
                "id": f"codex-nested-cwd-{fmt}",
                "actions": [
                    *current,
                    fake,
                    {"op": "mkdir", "path": "work/out/pkg"},
                    run("verify-codex", "--cwd", "out/pkg", "--format", fmt),
                ],
            }
        )
        out.append(
            {
                "id": f"codex-global-{fmt}",
                "actions": [
                    *home_current,
                    fake,
                    run("verify-codex", "--format", fmt, env={"FAKE_CODEX_MODE": "drop-markers"}),
                ],
            }
        )
        out.append(
            {
                "id": f"codex-three-modules-{fmt}",
                "actions": [
                    *worlds()["three-modules-current"],
                    fake,
                    run("verify-codex", "--format", fmt),
                ],
            }
        )
    return out


def _options() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def add(sid: str, actions: list[Action], **extra: Any) -> None:
        out.append({"id": sid, "actions": actions, **extra})

    drifted = worlds()["drifted"]
    add("opt-version", [run("version")])
    add("opt-version-flag", [run("--version")])
    add("opt-version-json", [run("version", "--format", "json")])
    add("opt-version-json-top", [run("--format", "json", "version")])
    add("opt-no-command", [run()])
    add("opt-no-command-json", [run("--format", "json")])
    add("opt-unknown-command", [run("frobnicate")])
    add("opt-unknown-option-json", [run("check", "--bogus", "--format", "json")])
    add("opt-bad-format", [run("check", "--format", "yaml")])
    add("opt-format-top", [*drifted, run("--format", "json", "check")])
    add("opt-format-sub-wins", [*drifted, run("--format", "json", "check", "--format", "text")])
    add(
        "opt-format-sub-wins-json", [*drifted, run("--format", "text", "check", "--format", "json")]
    )
    add("opt-quiet-top", [*drifted, run("--quiet", "check")])
    add("opt-quiet-sub", [*drifted, run("check", "--quiet")])
    add("opt-quiet-install-dry", [*bundle(), LOCK, run("install", "--quiet")])
    add("opt-quiet-lock", [*bundle(), run("lock", "--quiet")])
    add("opt-quiet-error", [*bundle(manifest(bundle_id="BAD")), run("check", "--quiet")])
    add(
        "opt-quiet-json-error",
        [*bundle(manifest(bundle_id="BAD")), run("check", "--quiet", "--format", "json")],
    )
    add("opt-install-apply-text", [*bundle(), LOCK, run("install", "--apply")])
    add("opt-rollback-missing-receipt-json", [*bundle(), run("rollback", "--format", "json")])
    add("opt-verify-bad-timeout", [*bundle(), run("verify-codex", "--timeout", "soon")])
    add(
        "opt-verify-cwd-outside",
        [*worlds()["current"], run("verify-codex", "--cwd", "{ROOT}", "--format", "json")],
    )
    add(
        "opt-verify-global-cwd",
        [
            *worlds()["home-target-current"],
            run("verify-codex", "--cwd", "{ROOT}/home", "--format", "json"),
        ],
    )
    add(
        "opt-verify-cwd-missing",
        [*worlds()["current"], run("verify-codex", "--cwd", "out/sub", "--format", "json")],
    )
    add("opt-help-exit", [run("--help")], compare="exit")
    add("opt-sub-help-exit", [run("check", "--help")], compare="exit")
    return out
