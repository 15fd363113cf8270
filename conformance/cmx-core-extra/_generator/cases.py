"""The generated inputs: every case the oracle answers, grouped by fixture category.

Inputs only. Expected values come from the Rust reference (`oracle/`), never from
this file. Each builder returns `(name, description, input)` triples; names are
stable so a regeneration diff shows changed answers, not reshuffled cases.
"""

from __future__ import annotations

import itertools
from typing import Any

Case = tuple[str, str, dict[str, Any]]

# Characters Rust's `str::trim` removes (Unicode White_Space) next to characters
# Python's `str.strip()` also removes but Rust does not (U+001C..U+001F), plus
# look-alikes that are neither (U+200B, U+FEFF, U+180E).
WHITE_SPACE = {
    "tab": "\t",
    "lf": "\n",
    "vt": "\x0b",
    "ff": "\x0c",
    "cr": "\r",
    "space": " ",
    "nel": "\x85",
    "nbsp": "\xa0",
    "ogham": "\u1680",
    "en-quad": "\u2000",
    "hair": "\u200a",
    "line-sep": "\u2028",
    "para-sep": "\u2029",
    "narrow-nbsp": "\u202f",
    "math-space": "\u205f",
    "ideographic": "\u3000",
}
NOT_WHITE_SPACE = {
    "fs-1c": "\x1c",
    "gs-1d": "\x1d",
    "rs-1e": "\x1e",
    "us-1f": "\x1f",
    "zwsp": "\u200b",
    "bom": "\ufeff",
    "mongolian-vs": "\u180e",
}
ALL_SPACES = {**WHITE_SPACE, **NOT_WHITE_SPACE}

# --- semver -----------------------------------------------------------------------

U64_MAX = str(2**64 - 1)
U64_OVER = str(2**64)

VERSION_PAIRS: list[tuple[str, str, str]] = [
    # (name, installed, bundled)
    ("build-leading-zeros-vs-plain", "1.0.0+001", "1.0.0+1"),
    ("build-plain-vs-leading-zeros", "1.0.0+1", "1.0.0+001"),
    ("build-equal", "1.0.0+abc", "1.0.0+abc"),
    ("build-alpha-order", "1.0.0+a", "1.0.0+b"),
    ("build-alpha-order-reverse", "1.0.0+b", "1.0.0+a"),
    ("build-numeric-vs-alpha", "1.0.0+1", "1.0.0+a"),
    ("build-longer-set", "1.0.0+a.b", "1.0.0+a"),
    ("build-shorter-set", "1.0.0+a", "1.0.0+a.b"),
    ("build-vs-none", "1.0.0+build", "1.0.0"),
    ("none-vs-build", "1.0.0", "1.0.0+build"),
    ("build-numeric-9-vs-10", "1.0.0+9", "1.0.0+10"),
    ("build-zero-vs-double-zero", "1.0.0+0", "1.0.0+00"),
    ("build-does-not-beat-core", "1.0.0+999", "1.0.1"),
    ("pre-with-build-vs-pre", "1.0.0-rc.1+b", "1.0.0-rc.1"),
    ("pre-build-vs-release", "1.0.0-rc.1+b", "1.0.0+a"),
    ("major-u64-max-equal", f"{U64_MAX}.0.0", f"{U64_MAX}.0.0"),
    ("major-u64-max-vs-smaller", f"{U64_MAX}.0.0", "1.0.0"),
    ("major-over-u64-vs-smaller", f"{U64_OVER}.0.0", "1.0.0"),
    ("smaller-vs-major-over-u64", "1.0.0", f"{U64_OVER}.0.0"),
    ("major-over-u64-equal-strings", f"{U64_OVER}.0.0", f"{U64_OVER}.0.0"),
    ("minor-over-u64", f"1.{U64_OVER}.0", "1.0.0"),
    ("patch-over-u64", f"1.0.{U64_OVER}", "1.0.0"),
    ("patch-u64-max", f"1.0.{U64_MAX}", "1.0.0"),
    ("pre-numeric-over-u64", f"1.0.0-{U64_OVER}", "1.0.0-1"),
    ("pre-numeric-over-u64-reverse", "1.0.0-1", f"1.0.0-{U64_OVER}"),
    ("pre-numeric-huge-vs-huger", f"1.0.0-{U64_OVER}", f"1.0.0-{2**70}"),
    ("build-numeric-over-u64", f"1.0.0+{U64_OVER}", "1.0.0+1"),
    ("pre-alpha-vs-numeric", "1.0.0-alpha", "1.0.0-1"),
    ("pre-numeric-vs-alpha", "1.0.0-1", "1.0.0-alpha"),
    ("pre-10-vs-9", "1.0.0-10", "1.0.0-9"),
    ("pre-shorter-set", "1.0.0-alpha", "1.0.0-alpha.1"),
    ("pre-longer-set", "1.0.0-alpha.1", "1.0.0-alpha"),
    ("pre-hyphen-ident", "1.0.0-a-b", "1.0.0-a"),
    ("pre-alnum-leading-zero", "1.0.0-0a", "1.0.0-0b"),
    ("pre-leading-zero-invalid-equal", "1.0.0-01", "1.0.0-01"),
    ("pre-leading-zero-invalid", "1.0.0-01", "1.0.0-1"),
    ("pre-vs-release", "1.0.0-rc.1", "1.0.0"),
    ("release-vs-pre", "1.0.0", "1.0.0-rc.1"),
    ("pre-uppercase-sorts-first", "1.0.0-RC", "1.0.0-rc"),
    ("pre-lowercase-sorts-last", "1.0.0-rc", "1.0.0-RC"),
    ("leading-zero-major", "01.0.0", "1.0.0"),
    ("leading-zero-major-equal", "01.0.0", "01.0.0"),
    ("v-prefix", "v1.0.0", "1.0.0"),
    ("v-prefix-equal", "v2.0.0", "v2.0.0"),
    ("two-components", "1.0", "1.0.0"),
    ("two-components-newer-looking", "2.0", "1.0.0"),
    ("four-components", "1.0.0.0", "1.0.0"),
    ("leading-space", " 1.0.0", "1.0.0"),
    ("trailing-space", "2.0.0 ", "1.0.0"),
    ("trailing-newline", "2.0.0\n", "1.0.0"),
    ("empty-pre", "1.0.0-", "1.0.0"),
    ("empty-build", "2.0.0+", "1.0.0"),
    ("empty-pre-ident", "1.0.0-a..b", "1.0.0"),
    ("fullwidth-digits", "\uff12.0.0", "1.0.0"),
    ("arabic-indic-digits", "\u0662.0.0", "1.0.0"),
    ("superscript-two", "1.0.\u00b2", "1.0.0"),
    ("underscore-in-pre", "2.0.0-a_b", "1.0.0"),
    ("non-semver-both-different", "latest", "stable"),
    ("non-semver-vs-semver", "latest", "1.0.0"),
    ("semver-vs-non-semver", "9.9.9", "nightly"),
    ("empty-installed", "", "1.0.0"),
    ("calver-like", "2024.01.05", "2024.1.5"),
    ("calver-valid", "2024.1.5", "2024.1.10"),
    ("large-but-valid-minor", "1.99999999999.0", "1.100000000000.0"),
    ("negative-looking", "-1.0.0", "1.0.0"),
    ("plus-only-build-dots", "1.0.0+a.01.b", "1.0.0+a.1.b"),
]

# A pool for the full pairwise matrix the property tests sample from.
VERSION_POOL = [
    "0.0.0",
    "0.0.1",
    "0.1.0",
    "1.0.0",
    "1.0.1",
    "1.1.0",
    "1.9.0",
    "1.10.0",
    "2.0.0",
    "10.0.0",
    "1.0.0-0",
    "1.0.0-1",
    "1.0.0-9",
    "1.0.0-10",
    "1.0.0-alpha",
    "1.0.0-alpha.1",
    "1.0.0-alpha.beta",
    "1.0.0-beta",
    "1.0.0-beta.2",
    "1.0.0-beta.11",
    "1.0.0-rc.1",
    "1.0.0-RC.1",
    "1.0.0-0a",
    "1.0.0+1",
    "1.0.0+001",
    "1.0.0+01",
    "1.0.0+0",
    "1.0.0+00",
    "1.0.0+a",
    "1.0.0+a.b",
    "1.0.0-rc.1+b",
    f"{U64_MAX}.0.0",
    f"{U64_OVER}.0.0",
    f"1.0.0-{U64_OVER}",
    f"1.0.0+{U64_OVER}",
    "01.0.0",
    "v1.0.0",
    "1.0",
    "latest",
    "",
    " 1.0.0",
    "1.0.0\x1c",
]


def version_guard_cases() -> list[Case]:
    cases: list[Case] = []
    for name, installed, bundled in VERSION_PAIRS:
        cases.append(
            (
                f"cmp-{name}",
                f"Installed {installed!r} against bundled {bundled!r}, dir missing: the action "
                "shows the reference's ordering (update = older, install = equal, "
                "refuse-newer = newer).",
                {
                    "bundled_version": bundled,
                    "tracked": True,
                    "installed_version": installed,
                    "disk_state": "missing",
                    "force": False,
                },
            )
        )
    extra = [
        ("build-metadata-newer-forced", "1.0.0+001", "1.0.0+1", "missing", True),
        ("build-metadata-equal-matches", "1.0.0+abc", "1.0.0+abc", "matches-source", False),
        ("build-metadata-equal-drifted", "1.0.0+abc", "1.0.0+abc", "drifted", False),
        ("over-u64-equal-strings-matches", f"{U64_OVER}.0.0", f"{U64_OVER}.0.0", "matches-source", False),
        ("over-u64-different-drifted-force", f"{U64_OVER}.0.0", "1.0.0", "drifted", True),
        ("non-semver-equal-drifted-force", "latest", "latest", "drifted", True),
        ("non-semver-equal-drifted", "latest", "latest", "drifted", False),
        ("untracked-with-disk", None, "1.0.0", "matches-source", False),
    ]
    for name, installed, bundled, disk, force in extra:
        cases.append(
            (
                f"guard-{name}",
                f"Installed {installed!r}, bundled {bundled!r}, disk {disk}, force {force}.",
                {
                    "bundled_version": bundled,
                    "tracked": installed is not None,
                    "installed_version": installed,
                    "disk_state": disk,
                    "force": force,
                },
            )
        )
    return cases


# --- SKILL.md reconciliation ------------------------------------------------------------


def reconcile_cases() -> list[Case]:
    cases: list[Case] = []
    for label, ch in ALL_SPACES.items():
        if ch in "\n\r":
            continue
        cases.append(
            (
                f"blank-line-of-{label}",
                f"A metadata line holding only {ch!r}: blank to the reference only if "
                "Rust's trim removes it, otherwise it ends the metadata block.",
                {
                    "version": "2.0.0",
                    "content": f"---\nname: x\nmetadata:\n  author: a\n{ch}\n  version: \"1.0.0\"\n---\n# Body\n",
                },
            )
        )
        cases.append(
            (
                f"version-key-after-{label}",
                f"A metadata child indented with {ch!r} before `version:`.",
                {
                    "version": "2.0.0",
                    "content": f"---\nmetadata:\n  author: a\n {ch}version: \"1.0.0\"\n---\n",
                },
            )
        )
        cases.append(
            (
                f"only-{label}-after-metadata",
                f"`metadata:` followed by a line of {ch!r} and then a top-level key.",
                {
                    "version": "2.0.0",
                    "content": f"---\nmetadata:\n{ch}{ch}\nname: x\n---\n",
                },
            )
        )
    fixed = {
        "fence-trailing-space": "--- \nname: x\n---\n",
        "closing-fence-trailing-space": "---\nname: x\n--- \n# body\n",
        "closing-fence-crcr": "---\nname: x\n---\r\r\n",
        "opener-crcr": "---\r\r\nname: x\n---\n",
        "bom-before-fence": "\ufeff---\nname: x\n---\n",
        "lone-cr-line-endings": "---\rname: x\r---\r",
        "empty-document": "",
        "fences-only": "---\n---\n",
        "fences-no-trailing-newline": "---\nname: x\n---",
        "no-trailing-newline-in-frontmatter-last-line": "---\nname: x\n---\nbody",
        "metadata-with-trailing-space": "---\nmetadata: \n  author: a\n---\n",
        "metadata-inline-value": "---\nmetadata: {}\n---\n",
        "metadata-tab-indent": "---\nmetadata:\n\tauthor: a\n---\n",
        "metadata-mixed-indent": "---\nmetadata:\n \tauthor: a\n  version: 1\n---\n",
        "two-metadata-blocks": "---\nmetadata:\n  a: 1\nmetadata:\n  b: 2\n---\n",
        "nested-version-deeper": "---\nmetadata:\n  inner:\n    version: 1\n---\n",
        "version-with-space-before-colon": "---\nversion : 1\nmetadata:\n  version : 2\n---\n",
        "top-level-version-indented-by-tab": "---\n\tversion: 1\n---\n",
        "many-top-level-versions": "---\nversion: 1\nname: x\nversion: 2\n---\n",
        "metadata-last-line-without-newline-inside": "---\nmetadata:\n  author: a\n---\n",
        "crlf-metadata-block": "---\r\nmetadata:\r\n  author: a\r\n---\r\n",
        "crlf-version-present": "---\r\nmetadata:\r\n  version: \"0.1\"\r\n---\r\n",
        "dash-lines-inside-body": "---\nname: x\n---\n---\nnot: frontmatter\n---\n",
        "unicode-keys-and-values": "---\nname: caf\u00e9\ndescription: \u65e5\u672c\u8a9e\nmetadata:\n  \u4f5c\u8005: \u4e00\n---\n",
        "metadata-then-comment": "---\nmetadata:\n# comment\n  version: 1\n---\n",
        "metadata-then-blank-then-child": "---\nmetadata:\n\n\n  author: a\n---\n",
        "versionx-key-in-metadata": "---\nmetadata:\n  versionx: 1\n---\n",
        "version-colon-no-space": "---\nmetadata:\n  version:1\n---\n",
    }
    for name, content in fixed.items():
        cases.append((name, f"Reconcile {content!r}.", {"version": "3.1.4", "content": content}))
    binary = {
        "non-utf8-frontmatter": b"---\nname: \xff\n---\n",
        "latin1-body": b"---\nname: x\n---\ncaf\xe9\n",
        "utf16-le-bom": "---\nname: x\n---\n".encode("utf-16"),
        "lone-surrogate-bytes": b"---\nname: \xed\xa0\x80\n---\n",
    }
    for name, data in binary.items():
        cases.append((name, "Non-UTF-8 SKILL.md bytes.", {"version": "3.1.4", "content_bytes": data}))
    for label, version in {
        "version-with-build": "1.0.0+001",
        "version-non-semver": "nightly",
        "version-unicode": "1.0.0-\u03b1",
        "version-with-spaces": "1.0 beta",
    }.items():
        cases.append(
            (
                label,
                f"The tool version {version!r} is written quoted as given.",
                {"version": version, "content": "---\nname: x\nversion: 0\n---\n"},
            )
        )
    return cases


# --- agent transform (Codex TOML field trimming) ---------------------------------------


def agent_transform_cases() -> list[Case]:
    cases: list[Case] = []
    for label, ch in ALL_SPACES.items():
        if ch in "\n\r":
            continue
        cases.append(
            (
                f"field-padded-with-{label}",
                f"name/description/model values padded with {ch!r}: kept or trimmed exactly "
                "as Rust's str::trim does.",
                {
                    "artifact_name": "fixture-agent",
                    "version": "1.2.0",
                    "markdown": (
                        f"---\nname:{ch}reviewer{ch}\ndescription: {ch}Reviews{ch} code{ch}\n"
                        f"model:{ch}{ch}\n---\nBody{ch}\n"
                    ),
                },
            )
        )
    fixed = {
        "quotes-inside-trim": "---\nname: ' \"quoted\" '\ndescription: \"'x'\"\n---\nB\n",
        "empty-name-falls-back": "---\nname:   \ndescription: d\n---\nB\n",
        "crlf-fields": "---\r\nname: crlf\r\ndescription: d\r\n---\r\nB\r\n",
        "control-chars-in-body": "---\nname: c\n---\n\x01\x1b\x7f\u2028\n",
        "indented-name-ignored": "---\n  name: nested\ndescription: d\n---\n",
        "tab-before-key-ignored": "---\n\tname: nested\n---\n",
        "no-frontmatter": "Just a body\n\n\n",
        "unterminated-frontmatter": "---\nname: x\nbody\n",
        "model-whitespace-only": "---\nname: m\nmodel: \u3000\n---\nB\n",
        "description-only-quotes": "---\nname: q\ndescription: \"\"\n---\n",
    }
    for name, markdown in fixed.items():
        cases.append(
            (
                name,
                f"Agent markdown {markdown!r}.",
                {"artifact_name": "fixture-agent", "version": "1.2.0", "markdown": markdown},
            )
        )
    return cases


# --- trimming --------------------------------------------------------------------------


def whitespace_cases() -> list[Case]:
    cases: list[Case] = []
    for label, ch in ALL_SPACES.items():
        cases.append(
            (
                f"around-{label}",
                f"{ch!r} on both sides of a word and inside it.",
                {"text": f"{ch}{ch}a{ch}b{ch}"},
            )
        )
    cases.append(("mixed-run", "A run of every character.", {"text": "".join(ALL_SPACES.values()) + "x" + "".join(ALL_SPACES.values())}))
    cases.append(("empty", "The empty string.", {"text": ""}))
    cases.append(("only-white-space", "Only White_Space.", {"text": "".join(WHITE_SPACE.values())}))
    cases.append(("only-not-white-space", "Only the look-alikes.", {"text": "".join(NOT_WHITE_SPACE.values())}))
    return cases


# --- on-disk trees ----------------------------------------------------------------------


def _file(path: str | bytes, content: str | bytes = "x\n") -> dict[str, Any]:
    return {"path": path, "kind": "file", "content": content}


def _link(path: str | bytes, target: str | bytes) -> dict[str, Any]:
    return {"path": path, "kind": "symlink", "target": target}


def _dir(path: str | bytes) -> dict[str, Any]:
    return {"path": path, "kind": "dir"}


SKILL = _file("SKILL.md", "---\nname: t\n---\n# T\n")


def checksum_tree_cases() -> list[Case]:
    trees: dict[str, tuple[str, list[dict[str, Any]]]] = {
        "plain-nested": ("Regular nested files.", [SKILL, _file("a/b/c.txt", "c")]),
        "dot-slash-order": (
            "`a-`, `a.b`, `a/b`, `a0` in byte order of the joined path.",
            [_file("a.b", "2"), _file("a/b", "3"), _file("a-", "1"), _file("a0", "4")],
        ),
        "symlinked-dir-inside": (
            "A symlinked directory pointing at a sibling directory inside the tree is followed.",
            [SKILL, _file("real/x.txt", "x"), _link("alias", "real")],
        ),
        "symlinked-dir-absolute-inside": (
            "A symlinked directory given as `../tree/real` (inside) is followed.",
            [SKILL, _file("real/x.txt", "x"), _link("alias", "../tree/real")],
        ),
        "symlinked-file-inside": (
            "A symlinked file is read through the link.",
            [SKILL, _file("real.txt", "r"), _link("link.txt", "real.txt")],
        ),
        "symlinked-dir-nested-twice": (
            "A link to a directory that itself holds a link.",
            [SKILL, _file("d1/f", "1"), _link("d2", "d1"), _link("d1/inner", "../d3"), _file("d3/g", "3")],
        ),
        "dangling-symlink": ("A dangling symlink at the top level.", [SKILL, _link("gone", "missing-target")]),
        "dangling-symlink-nested": ("A dangling symlink in a subdirectory.", [SKILL, _link("sub/gone", "nowhere")]),
        "dangling-symlink-hidden": ("A dangling symlink under a dot name is never visited.", [SKILL, _link(".gone", "nowhere")]),
        "dangling-symlink-in-node-modules": (
            "A dangling symlink inside node_modules is never visited.",
            [SKILL, _link("node_modules/pkg", "nowhere")],
        ),
        "dangling-symlink-pyc": ("A dangling `x.pyc` link is excluded by name.", [SKILL, _link("x.pyc", "nowhere")]),
        "symlink-cycle-self": ("A directory link pointing at its own parent.", [SKILL, _link("loop", ".")]),
        "symlink-cycle-pair": ("Two directory links pointing at each other.", [SKILL, _link("a", "b"), _link("b", "a")]),
        "symlink-dir-cycle-nested": ("A nested link back to the root.", [SKILL, _link("d/up", "..")]),
        "symlink-outside-file": (
            "A file link leading out of the tree (to an existing file).",
            [SKILL, _file("../outside.txt", "outside"), _link("out.txt", "../outside.txt")],
        ),
        "symlink-outside-dir": (
            "A directory link leading out of the tree (to an existing directory).",
            [SKILL, _file("../outside-dir/o.txt", "o"), _link("outdir", "../outside-dir")],
        ),
        "symlink-outside-chain": (
            "A link to a link that leads out of the tree.",
            [SKILL, _file("../far.txt", "f"), _link("hop", "far-link"), _link("far-link", "../far.txt")],
        ),
        "non-utf8-file-name": ("A file whose name is not UTF-8.", [SKILL, _file(b"caf\xe9.txt", "latin-1 name")]),
        "non-utf8-dir-name": ("A directory whose name is not UTF-8.", [SKILL, _file(b"d\xff/x.txt", "x")]),
        "non-utf8-truncated-sequence": ("A truncated UTF-8 sequence in a name.", [SKILL, _file(b"a\xe2\x82.txt", "t")]),
        "non-utf8-surrogate-bytes": ("CESU surrogate bytes in a name.", [SKILL, _file(b"s\xed\xa0\x80.txt", "s")]),
        "non-utf8-overlong": ("An overlong encoding of `/` in a name.", [SKILL, _file(b"o\xc0\xaf.txt", "o")]),
        "non-utf8-sorts-after-ascii": (
            "A non-UTF-8 name next to ASCII names: sorted by its lossy text.",
            [SKILL, _file(b"z\xff", "1"), _file("z~", "2"), _file("zz", "3")],
        ),
        "non-utf8-pyc-excluded": ("`\\xff.pyc` is excluded.", [SKILL, _file(b"\xff.pyc", "p")]),
        "non-utf8-hidden-excluded": ("`.\\xff` is hidden.", [SKILL, _file(b".\xff", "h")]),
        "pyc-case-variants": (
            "`.pyc` in any ASCII case is excluded; `.pyc.txt` and `pyc` are not.",
            [SKILL, _file("a.PYC"), _file("b.PyC"), _file("c.pyc.txt"), _file("pyc"), _file("d.pyco")],
        ),
        "pyc-directory": ("A directory named `x.pyc` excludes everything under it.", [SKILL, _file("x.pyc/y.txt")]),
        "transient-at-depth": (
            "Transient names at any depth.",
            [SKILL, _file("a/node_modules/m.js"), _file("a/__pycache__/c"), _file("a/.git/HEAD"), _file("a/.DS_Store"), _file("a/keep.txt")],
        ),
        "transient-lookalikes-kept": (
            "Names close to transient ones are kept.",
            [SKILL, _file("node_modules.txt"), _file("Node_Modules/x"), _file("__pycache__x"), _file("git")],
        ),
        "empty-dirs-ignored": ("Empty directories add nothing.", [SKILL, _dir("empty"), _dir("e/f/g")]),
        "empty-tree": ("No files at all.", []),
        "unicode-nfc-nfd-names": (
            "NFC and NFD spellings are different byte strings and both hashed.",
            [SKILL, _file("caf\u00e9", "nfc"), _file("cafe\u0301", "nfd")],
        ),
        "names-with-spaces-and-newline": (
            "Names holding spaces, a tab and a newline.",
            [SKILL, _file(" lead"), _file("tab\there"), _file("new\nline")],
        ),
        "backslash-in-name": ("A backslash is an ordinary byte on Unix.", [SKILL, _file("a\\b.txt", "bs")]),
        "binary-content": ("Arbitrary binary content.", [SKILL, _file("bin.dat", bytes(range(256)))]),
        "symlink-to-hidden-file": ("A visible link to a hidden file is followed.", [SKILL, _file(".secret", "s"), _link("shown", ".secret")]),
        "hidden-link-to-visible-dir": ("A hidden link to a visible directory is skipped.", [SKILL, _file("d/x", "x"), _link(".d", "d")]),
        "link-named-like-transient": ("A link named node_modules is skipped.", [SKILL, _file("d/x"), _link("node_modules", "d")]),
    }
    return [(name, desc, {"entries": entries}) for name, (desc, entries) in trees.items()]


# --- lockfile load → save -------------------------------------------------------------

_ENTRY = (
    '{"type": "skill", "version": "1.0.0", "installed_at": "2026-07-05T12:00:00+00:00", '
    '"source": {"repo": "bundled:t", "path": "skills/t"}, '
    '"source_checksum": "sha256:aa", "installed_checksum": "sha256:bb"}'
)


def _lock(packages: str, top: str = '"version": 1') -> str:
    return "{" + top + ', "packages": {' + packages + "}}"


def _entry_with(**changes: str | None) -> str:
    import json

    entry = json.loads(_ENTRY)
    for key, value in changes.items():
        key = key.rstrip("_")
        if value is None:
            entry.pop(key, None)
        else:
            entry[key] = json.loads(value)
    return json.dumps(entry, ensure_ascii=False)


def _entry_raw(installed_at_literal: str) -> str:
    """The entry with `installed_at` spelled exactly as the given JSON literal."""
    return _ENTRY.replace('"2026-07-05T12:00:00+00:00"', installed_at_literal)


def lockfile_cases() -> list[Case]:
    texts: dict[str, tuple[str, str | bytes]] = {
        "minimal-empty": ("Empty packages.", _lock("")),
        "one-entry": ("One full entry.", _lock(f'"t": {_ENTRY}')),
        "keys-sorted-on-write": ("Packages come back in sorted order.", _lock(f'"b": {_ENTRY}, "a": {_ENTRY}, "B": {_ENTRY}, "\u00e9": {_ENTRY}')),
        "version-null-omitted": ("A null entry version is omitted on write.", _lock(f'"t": {_entry_with(version="null")}')),
        "version-absent": ("An absent entry version stays absent.", _lock(f'"t": {_entry_with(version=None)}')),
        "agent-entry": ("An agent entry reads and writes back.", _lock(f'"t": {_entry_with(type_=chr(34) + "agent" + chr(34))}')),
        "unknown-type": ("`type: plugin` is rejected.", _lock(f'"t": {_entry_with(type_=chr(34) + "plugin" + chr(34))}')),
        "type-uppercase": ("`type: Skill` is rejected.", _lock(f'"t": {_entry_with(type_=chr(34) + "Skill" + chr(34))}')),
        "unknown-entry-key": ("An unknown entry key.", _lock(f'"t": {_entry_with(pinned="true")}')),
        "unknown-top-level-key": ("An unknown top-level key.", _lock("", '"version": 1, "generator": "x"')),
        "unknown-source-key": ("An unknown key inside source.", _lock('"t": ' + _ENTRY.replace('"path": "skills/t"', '"path": "skills/t", "ref": "main"'))),
        "missing-top-version": ("No top-level version.", '{"packages": {}}'),
        "missing-packages": ("No packages object.", '{"version": 1}'),
        "packages-null": ("packages is null.", '{"version": 1, "packages": null}'),
        "version-2": ("Top-level version 2.", _lock("", '"version": 2')),
        "version-0": ("Top-level version 0.", _lock("", '"version": 0')),
        "version-float": ("Top-level version 1.0.", _lock("", '"version": 1.0')),
        "version-string": ("Top-level version \"1\".", _lock("", '"version": "1"')),
        "version-negative": ("Top-level version -1.", _lock("", '"version": -1')),
        "version-over-u32": ("Top-level version 2^32.", _lock("", '"version": 4294967296')),
        "entry-version-number": ("Entry version as a number.", _lock(f'"t": {_entry_with(version="1")}')),
        "missing-installed-at": ("Entry without installed_at.", _lock(f'"t": {_entry_with(installed_at=None)}')),
        "missing-source": ("Entry without source.", _lock(f'"t": {_entry_with(source=None)}')),
        "missing-source-checksum": ("Entry without source_checksum.", _lock(f'"t": {_entry_with(source_checksum=None)}')),
        "installed-at-not-rfc3339": ("installed_at is any string.", _lock(f'"t": {_entry_with(installed_at=chr(34) + "yesterday" + chr(34))}')),
        "duplicate-package-names": ("The same package twice: the last wins.", '{"version": 1, "packages": {"t": ' + _ENTRY + ', "t": ' + _entry_with(version='"2.0.0"') + "}}"),
        "duplicate-top-level-version": ("The version key twice.", '{"version": 1, "version": 1, "packages": {}}'),
        "duplicate-entry-field": ("An entry field twice.", _lock('"t": ' + _ENTRY.replace('"type": "skill"', '"type": "skill", "type": "skill"'))),
        "trailing-comma": ("A trailing comma.", '{"version": 1, "packages": {},}'),
        "trailing-garbage": ("Text after the object.", _lock("") + " x"),
        "trailing-whitespace": ("Whitespace after the object.", _lock("") + " \n\t\r\n"),
        "leading-bom": ("A UTF-8 byte order mark.", "\ufeff" + _lock("")),
        "nan-in-unknown-key": ("NaN in an ignored field.", _lock("", '"version": 1, "x": NaN')),
        "huge-number-in-unknown-key": ("1e400 in an ignored field.", _lock("", '"version": 1, "x": 1e400')),
        "big-int-in-unknown-key": ("A 30-digit integer in an ignored field.", _lock("", '"version": 1, "x": 123456789012345678901234567890')),
        "lone-surrogate-escape": ("A lone surrogate escape in a string.", _lock(f'"t": {_entry_raw(chr(34) + chr(92) + "ud800" + chr(34))}')),
        "surrogate-pair-escape": ("A surrogate pair escape.", _lock(f'"t": {_entry_raw(chr(34) + chr(92) + "ud83d" + chr(92) + "ude00" + chr(34))}')),
        "control-chars-escaped": ("Control characters come back escaped.", _lock(f'"t": {_entry_raw(chr(34) + "".join(chr(92) + "u%04x" % c for c in range(32)) + chr(92) + "u007f" + chr(34))}')),
        "unicode-raw-on-write": ("Non-ASCII stays raw, / is not escaped.", _lock(f'"caf\u00e9/\u65e5": {_entry_raw(chr(34) + chr(92) + "u00e9/" + chr(92) + "u2028" + chr(92) + "/" + chr(34))}')),
        "empty-object-file": ("`{}`.", "{}"),
        "top-level-array": ("A JSON array.", "[]"),
        "empty-file": ("Zero bytes.", ""),
        "invalid-utf8": ("Bytes that are not UTF-8.", b'{"version": 1, "packages": {"\xff": ' + _ENTRY.encode() + b"}}"),
        "nested-whitespace-formatting": ("Compact input comes back pretty.", _lock(f'"t":{_ENTRY}').replace(" ", "")),
        "entry-not-object": ("An entry that is a string.", _lock('"t": "x"')),
        "source-not-object": ("source as a string.", _lock(f'"t": {_entry_with(source=chr(34) + "x" + chr(34))}')),
        "package-name-empty": ("An empty package name.", _lock(f'"": {_ENTRY}')),
    }
    return [(name, desc, {"text": text}) for name, (desc, text) in texts.items()]


def escape_code_points() -> list[int]:
    points = list(range(0x00, 0x100))
    points += [0x2028, 0x2029, 0xFEFF, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF, 0x07FF, 0x0800]
    return points


# --- install end to end (in-memory reference fs) ------------------------------------------

HOME = "home/testuser"
CONFIG = f"{HOME}/.config/context-mixer"
TOOL = "fixture-tool"
SKILL_MD = "---\nname: fixture-tool\ndescription: Fixture skill.\n---\n# Fixture\n"


def _bundle(extra: dict[str, str] | None = None) -> dict[str, str]:
    return {"SKILL.md": SKILL_MD, "scripts/tool.py": "print('fixture')\n", **(extra or {})}


def _config(platforms: list[str], home: str | None = None) -> str:
    import json

    value: dict[str, Any] = {"version": 1, "llm": {"gateway": "openai", "model": "gpt-5.4"}}
    if home is not None:
        value["home"] = home
    value["platforms"] = platforms
    return json.dumps(value, indent=2)


def _sources(entries: dict[str, str]) -> str:
    import json

    value = {
        "version": 1,
        "sources": {
            name: {"type": "local", "path": path, "last_updated": "2026-01-01T00:00:00+00:00"}
            for name, path in sorted(entries.items())
        },
    }
    return json.dumps(value, indent=2)


def e2e_cases() -> list[tuple[str, str, dict[str, Any]]]:
    """Each input: tool_version, scope, force, bundle, pre_tree, pre_locks (+ setup)."""
    home_copy = f"/{CONFIG}/home/skills/{TOOL}"
    registered = {f"{CONFIG}/sources.json": _sources({f"bundled:{TOOL}": home_copy})}
    managed = {f"{CONFIG}/config.json": _config(["claude"])}
    cases: list[tuple[str, str, dict[str, Any]]] = []

    def add(name: str, desc: str, **spec: Any) -> None:
        spec.setdefault("tool_version", "2.4.6")
        spec.setdefault("scope", "global")
        spec.setdefault("force", False)
        spec.setdefault("bundle", _bundle())
        spec.setdefault("pre_tree", {})
        spec.setdefault("installed", None)
        cases.append((name, desc, spec))

    add("managed-fresh-registers-and-copies", "Managed machine, nothing installed: install, register, copy home.", pre_tree=dict(managed))
    add(
        "managed-registered-update-refreshes-home",
        "Managed, source already registered, older install: the home copy is rewritten.",
        pre_tree={**managed, **registered, f"{CONFIG}/home/skills/{TOOL}/SKILL.md": "old home copy\n", f"{CONFIG}/home/skills/{TOOL}/stale.txt": "stale\n"},
        installed={"platform": "claude", "version": "1.0.0", "content": "old"},
    )
    add(
        "managed-registered-skip-still-copies-home",
        "Managed, registered, identical install (skip): apply still writes the home copy.",
        pre_tree={**managed, **registered},
        installed={"platform": "claude", "version": "2.4.6", "content": "same"},
    )
    add(
        "managed-registered-drifted-skip-copies-home",
        "Managed, registered, local edits: edits kept, home copy written.",
        pre_tree={**managed, **registered},
        installed={"platform": "claude", "version": "2.4.6", "content": "drifted"},
    )
    add(
        "managed-registered-elsewhere-keeps-entry",
        "Managed, bundled source registered at another path: entry kept, home copy still written.",
        pre_tree={**managed, f"{CONFIG}/sources.json": _sources({f"bundled:{TOOL}": "/opt/elsewhere", "team": "/srv/team"})},
    )
    add(
        "managed-home-override",
        "config.home set: the copy goes under that home.",
        pre_tree={f"{CONFIG}/config.json": _config(["claude"], home=f"/{HOME}/agent-home")},
    )
    add(
        "managed-refuse-newer-writes-nothing",
        "Managed, newer install: blocked, no home copy.",
        pre_tree={**managed, **registered},
        installed={"platform": "claude", "version": "9.0.0", "content": "same"},
    )
    add(
        "managed-force-downgrade-copies-home",
        "Managed, newer install, force: downgrade, home copy written.",
        pre_tree={**managed, **registered},
        installed={"platform": "claude", "version": "9.0.0", "content": "drifted"},
        force=True,
    )
    add(
        "managed-two-platforms-local",
        "Managed (claude, codex), local scope: project installs, global home copy.",
        scope="local",
        pre_tree={f"{CONFIG}/config.json": _config(["claude", "codex"])},
    )
    add(
        "unmanaged-in-use-no-registration",
        "Unmanaged, non-empty codex lock: install there, nothing registered.",
        installed={"platform": "codex", "version": "1.0.0", "content": "old", "other": True},
    )
    add(
        "managed-shared-dir-three-platforms",
        "Managed (codex, pi, amp) global: .agents/skills once, amp elsewhere, one home copy.",
        pre_tree={f"{CONFIG}/config.json": _config(["codex", "pi", "amp"])},
    )
    add(
        "managed-nested-bundle-dotfiles",
        "Managed, bundle with dotfiles and transients: all copied to the home copy.",
        pre_tree=dict(managed),
        bundle=_bundle({".env": "SECRET=1\n", "node_modules/m.js": "m\n", "a/b/c.md": "c\n"}),
    )
    return cases
