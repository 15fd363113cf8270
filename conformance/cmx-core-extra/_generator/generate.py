"""Freeze the Rust reference's answers as cmx-core-extra fixtures.

    python conformance/cmx-core-extra/_generator/generate.py --oracle PATH/TO/cmx-oracle

Builds every input in `cases.py`, re-asks the oracle about the hand-written cases
already in this directory (their expected values are replaced by the oracle's,
and every change is printed), and rewrites the category manifests. Needs only the
standard library and the oracle binary (see ../README.md for building it). CI never
runs this; it replays what it wrote.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import cases as gen
from deviations import DEVIATIONS

EXTRA = Path(__file__).resolve().parents[1]


# --- bytes in JSON ----------------------------------------------------------------------


def to_bytes(value: str | bytes) -> bytes:
    return value if isinstance(value, bytes) else value.encode("utf-8", "surrogatepass")


def blob(data: bytes) -> str | dict[str, str]:
    """A fixture byte string: plain text when it is UTF-8, else `{"hex": ...}`."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return {"hex": data.hex()}


# --- the oracle -------------------------------------------------------------------------


class Oracle:
    def __init__(self, binary: Path) -> None:
        self.binary = binary
        self.requests: list[dict[str, Any]] = []

    def ask(self, op: str, **fields: Any) -> str:
        ident = f"q{len(self.requests)}"
        self.requests.append({"id": ident, "op": op, **fields})
        return ident

    def run(self) -> dict[str, Any]:
        payload = json.dumps({"cases": self.requests})
        done = subprocess.run(
            [str(self.binary)], input=payload, capture_output=True, text=True, check=True
        )
        answers: dict[str, Any] = json.loads(done.stdout)["answers"]
        return answers


def write_manifest(category: str, cases: list[dict[str, Any]]) -> None:
    directory = EXTRA / category
    directory.mkdir(exist_ok=True)
    text = json.dumps({"schema_version": 1, "cases": cases}, indent=2, ensure_ascii=False)
    (directory / "manifest.json").write_text(text + "\n", encoding="utf-8")
    print(f"{category}: {len(cases)} cases")


def case(category: str, name: str, description: str, inp: Any, expected: dict[str, Any]) -> dict[str, Any]:
    deviation = DEVIATIONS.get(f"{category}/{name}")
    if deviation is not None:
        expected = {**expected, "deviation": deviation[0], "port": deviation[1]}
    return {"name": name, "description": description, "input": inp, "expected": expected}


def load_existing(category: str) -> list[dict[str, Any]]:
    path = EXTRA / category / "manifest.json"
    if not path.is_file():
        return []
    cases: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["cases"]
    return cases


def report_change(label: str, old: Any, new: Any) -> None:
    if old != new:
        print(f"CHANGED {label}:\n  was {json.dumps(old, ensure_ascii=False)}\n  now {json.dumps(new, ensure_ascii=False)}")


# --- categories -----------------------------------------------------------------------


GUARD_KEYS = ("kind", "from", "installed", "will_write", "blocked")
AGENT_KEYS = ("reconciled_markdown", "codex_toml", "source_checksum", "codex_checksum")


def inline_category(
    oracle: Oracle, category: str, op: str, generated: list[gen.Case], keys: tuple[str, ...]
) -> Any:
    """A category whose inputs are inline: the hand-written cases are re-asked (and
    any changed answer printed), the generated ones appended."""
    names = {name for name, _, _ in generated}
    hand = [c for c in load_existing(category) if c["name"] not in names]
    asked = [(c, oracle.ask(op, **c["input"])) for c in hand]
    for name, desc, inp in generated:
        fresh = {"name": name, "description": desc, "input": inp, "expected": None}
        asked.append((fresh, oracle.ask(op, **inp)))

    def finish(answers: dict[str, Any]) -> None:
        out = []
        for c, ident in asked:
            expected = {k: answers[ident][k] for k in keys}
            if c["expected"] is not None:
                report_change(f"{category}/{c['name']}", c["expected"], expected)
            out.append(case(category, c["name"], c["description"], c["input"], expected))
        write_manifest(category, out)

    return finish


def version_guard(oracle: Oracle) -> Any:
    return inline_category(
        oracle, "version-guard", "guard", gen.version_guard_cases(), GUARD_KEYS
    )


def version_order(oracle: Oracle) -> Any:
    pool = gen.VERSION_POOL
    grid = [
        [
            oracle.ask(
                "guard",
                bundled_version=b,
                tracked=True,
                installed_version=a,
                disk_state="missing",
                force=False,
            )
            for b in pool
        ]
        for a in pool
    ]
    symbol = {"update": "<", "install": "=", "refuse-newer": ">"}

    def finish(answers: dict[str, Any]) -> None:
        rows = ["".join(symbol[answers[ident]["kind"]] for ident in row) for row in grid]
        write_manifest(
            "version-order",
            [
                case(
                    "version-order",
                    "pool-matrix",
                    "Row i, column j: how the reference orders installed version i against "
                    "bundled version j (<, =, >), observed through plan() with the skill "
                    "directory missing. The property tests sample pairs from this matrix.",
                    {"versions": pool},
                    {"order": rows},
                )
            ],
        )

    return finish


def reconcile(oracle: Oracle) -> Any:
    asked = []
    for name, desc, inp in gen.reconcile_cases():
        data = to_bytes(inp.get("content", inp.get("content_bytes", b"")))
        ident = oracle.ask("reconcile", version=inp["version"], content_hex=data.hex())
        asked.append((name, desc, {"version": inp["version"], "skill_md": blob(data)}, ident))
    # The hand-written frontmatter fixtures, re-asked byte for byte.
    hand = []
    for c in load_existing("frontmatter"):
        source = (EXTRA / "frontmatter" / c["input"]["skill_md_path"]).read_bytes()
        expected = (EXTRA / "frontmatter" / c["expected"]["skill_md_path"]).read_bytes()
        ident = oracle.ask("reconcile", version=c["input"]["version"], content_hex=source.hex())
        hand.append((c, expected, ident))

    def finish(answers: dict[str, Any]) -> None:
        out = []
        for name, desc, inp, ident in asked:
            answer = answers[ident]
            expected = {
                "skill_md": blob(bytes.fromhex(answer["output_hex"])),
                "idempotent": answer["idempotent"],
            }
            out.append(case("reconcile", name, desc, inp, expected))
        write_manifest("reconcile", out)
        for c, old, ident in hand:
            new = bytes.fromhex(answers[ident]["output_hex"])
            if new != old:
                report_change(f"frontmatter/{c['name']}", blob(old), blob(new))
                (EXTRA / "frontmatter" / c["expected"]["skill_md_path"]).write_bytes(new)
            if answers[ident]["idempotent"] != c["expected"]["idempotent_second_pass"]:
                report_change(f"frontmatter/{c['name']} idempotent", c["expected"]["idempotent_second_pass"], answers[ident]["idempotent"])

    return finish


def agent_transform(oracle: Oracle) -> Any:
    return inline_category(
        oracle, "agent-transform", "agent-transform", gen.agent_transform_cases(), AGENT_KEYS
    )


def checksum(oracle: Oracle) -> Any:
    """Only re-asks the hand-written in-memory checksum cases."""
    hand = load_existing("checksum")
    asked = [(c, oracle.ask("checksum-files", files=c["input"]["files"])) for c in hand]

    def finish(answers: dict[str, Any]) -> None:
        out = []
        for c, ident in asked:
            answer = answers[ident]
            expected = {
                "sha256": answer["sha256"],
                "canonical_order": answer["canonical_order"],
                "canonical_included_paths": answer["canonical_order"],
            }
            report_change(f"checksum/{c['name']}", c["expected"], expected)
            out.append(case("checksum", c["name"], c["description"], c["input"], expected))
        write_manifest("checksum", out)

    return finish


def whitespace(oracle: Oracle) -> Any:
    asked = [(name, desc, inp, oracle.ask("trim", **inp)) for name, desc, inp in gen.whitespace_cases()]
    full = oracle.ask("whitespace-set")

    def finish(answers: dict[str, Any]) -> None:
        out = [case("whitespace", n, d, i, answers[ident]) for n, d, i, ident in asked]
        write_manifest("whitespace", out)
        write_manifest(
            "white-space-set",
            [
                case(
                    "white-space-set",
                    "all-scalar-values",
                    "Every Unicode scalar value Rust's str::trim removes, as inclusive ranges.",
                    {"scalar_values": "U+0000..U+10FFFF"},
                    {"ranges": answers[full]["ranges"]},
                )
            ],
        )

    return finish


def json_escape(oracle: Oracle) -> Any:
    points = gen.escape_code_points()
    ident = oracle.ask("json-escape", code_points=points)

    def finish(answers: dict[str, Any]) -> None:
        write_manifest(
            "json-escape",
            [
                case(
                    "json-escape",
                    "string-escapes",
                    "serde_json's encoding of a one-character string, per code point: the "
                    "escaping every lockfile string goes through.",
                    {"code_points": points},
                    {"escapes": answers[ident]["escapes"]},
                )
            ],
        )

    return finish


def checksum_tree(oracle: Oracle) -> Any:
    asked = []
    for name, desc, inp in gen.checksum_tree_cases():
        wire = []
        fixture = []
        for entry in inp["entries"]:
            item = {"path_hex": to_bytes(entry["path"]).hex(), "kind": entry["kind"]}
            shown: dict[str, Any] = {"path": blob(to_bytes(entry["path"])), "kind": entry["kind"]}
            if entry["kind"] == "file":
                item["content_hex"] = to_bytes(entry["content"]).hex()
                shown["content"] = blob(to_bytes(entry["content"]))
            if entry["kind"] == "symlink":
                item["target_hex"] = to_bytes(entry["target"]).hex()
                shown["target"] = blob(to_bytes(entry["target"]))
            wire.append(item)
            fixture.append(shown)
        asked.append((name, desc, {"entries": fixture}, oracle.ask("checksum-tree", entries=wire)))

    def finish(answers: dict[str, Any]) -> None:
        out = [case("checksum-tree", n, d, i, answers[ident]) for n, d, i, ident in asked]
        write_manifest("checksum-tree", out)

    return finish


def lockfile_roundtrip(oracle: Oracle) -> Any:
    asked = []
    for name, desc, inp in gen.lockfile_cases():
        data = to_bytes(inp["text"])
        asked.append((name, desc, {"text": blob(data)}, oracle.ask("lock-roundtrip", text_hex=data.hex())))

    def finish(answers: dict[str, Any]) -> None:
        out = []
        for name, desc, inp, ident in asked:
            answer = answers[ident]
            if "output_hex" in answer:
                expected: dict[str, Any] = {"output": blob(bytes.fromhex(answer["output_hex"]))}
            else:
                expected = {"error": answer["error"]}
            out.append(case("lockfile-roundtrip", name, desc, inp, expected))
        write_manifest("lockfile-roundtrip", out)

    return finish


# --- install-e2e ----------------------------------------------------------------------------


def read_tree(root: Path) -> dict[str, bytes]:
    if not root.is_dir():
        return {}
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def write_tree(root: Path, files: dict[str, bytes]) -> None:
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    for rel, data in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def hexed(files: dict[str, str | bytes]) -> dict[str, str]:
    return {rel: to_bytes(data).hex() for rel, data in files.items()}


def install_e2e(oracle: Oracle) -> Any:
    base = EXTRA / "install-e2e"
    asked = []
    for c in load_existing("install-e2e"):
        if c["name"] in {n for n, _, _ in gen.e2e_cases()}:
            continue
        inp = c["input"]
        ident = oracle.ask(
            "e2e",
            tool_name=inp["tool_name"],
            tool_version=inp["tool_version"],
            scope=inp["scope"],
            force=inp["force"],
            bundle=hexed(read_tree(base / inp["bundle_dir"])),
            pre_tree=hexed(read_tree(base / inp["pre_tree_dir"])),
            pre_locks=hexed(read_tree(base / inp["pre_locks_dir"])),
            installed=None,
        )
        asked.append((c["name"], c["description"], inp, ident, True))
    for name, desc, spec in gen.e2e_cases():
        inp = {
            "tool_name": gen.TOOL,
            "tool_version": spec["tool_version"],
            "scope": spec["scope"],
            "force": spec["force"],
            "bundle_dir": f"{name}/bundle",
            "pre_tree_dir": f"{name}/pre/tree",
            "pre_locks_dir": f"{name}/pre/locks",
        }
        ident = oracle.ask(
            "e2e",
            tool_name=gen.TOOL,
            tool_version=spec["tool_version"],
            scope=spec["scope"],
            force=spec["force"],
            bundle=hexed(spec["bundle"]),
            pre_tree=hexed(spec["pre_tree"]),
            pre_locks={},
            installed=spec["installed"],
        )
        write_tree(base / name / "bundle", {k: to_bytes(v) for k, v in spec["bundle"].items()})
        asked.append((name, desc, inp, ident, False))

    def finish(answers: dict[str, Any]) -> None:
        out = []
        for name, desc, inp, ident, existing in asked:
            answer = answers[ident]
            case_dir = base / name
            tree = {k: bytes.fromhex(v) for k, v in answer["tree"].items()}
            locks = {k: json.loads(bytes.fromhex(v)) for k, v in answer["locks"].items()}
            if existing:
                old_report = json.loads((case_dir / "expected" / "report.json").read_text(encoding="utf-8"))
                report_change(f"install-e2e/{name} report", old_report, answer["report"])
                old_tree = read_tree(case_dir / "expected" / "tree")
                if old_tree != tree:
                    report_change(f"install-e2e/{name} tree", sorted(old_tree), sorted(tree))
                old_locks = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted((case_dir / "expected" / "locks").glob("*"))}
                report_change(f"install-e2e/{name} locks", old_locks, locks)
            else:
                write_tree(case_dir / "pre" / "tree", {k: bytes.fromhex(v) for k, v in answer["pre_tree"].items()})
                write_tree(case_dir / "pre" / "locks", {k: bytes.fromhex(v) for k, v in answer["pre_locks"].items()})
            write_tree(case_dir / "expected" / "tree", tree)
            write_tree(case_dir / "expected" / "locks", {k: (json.dumps(v, indent=2) + "\n").encode() for k, v in locks.items()})
            (case_dir / "expected" / "report.json").write_text(json.dumps(answer["report"], indent=2) + "\n", encoding="utf-8")
            expected = {
                "tree_dir": f"{name}/expected/tree",
                "locks_dir": f"{name}/expected/locks",
                "report_path": f"{name}/expected/report.json",
            }
            out.append(case("install-e2e", name, desc, inp, expected))
        write_manifest("install-e2e", out)

    return finish


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--oracle", type=Path, required=True, help="the built cmx-oracle binary")
    args = parser.parse_args()
    oracle = Oracle(args.oracle)
    finishers = [
        build(oracle)
        for build in (
            version_guard,
            version_order,
            checksum,
            reconcile,
            agent_transform,
            whitespace,
            json_escape,
            checksum_tree,
            lockfile_roundtrip,
            install_e2e,
        )
    ]
    answers = oracle.run()
    for finish in finishers:
        finish(answers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
