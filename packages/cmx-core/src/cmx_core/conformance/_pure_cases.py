"""Categories that exercise pure functions: checksum, frontmatter, agent-transform,
version-guard and paths."""

from __future__ import annotations

from cmx_core._agents import AgentTransform
from cmx_core._bundle import normalize_rel_path
from cmx_core._checksum import canonical_order, checksum_bytes, checksum_pairs
from cmx_core._frontmatter import reconcile_skill_md_bytes
from cmx_core._guard import DiskState, decide_action
from cmx_core._identity import ToolIdentity
from cmx_core._platforms import ArtifactKind, Platform, Scope
from cmx_core.conformance._diffing import diff_bytes, diff_json, diff_text
from cmx_core.conformance._manifest import (
    Case,
    Fields,
    FixtureError,
    fixture_path,
    optional_str,
    typed,
)

CHECKSUM = Fields(
    input=frozenset({"files"}),
    expected=frozenset({"sha256", "canonical_order", "canonical_included_paths"}),
)
FRONTMATTER = Fields(
    input=frozenset({"version", "skill_md_path"}),
    expected=frozenset({"skill_md_path", "byte_exact", "idempotent_second_pass"}),
)
AGENT_TRANSFORM = Fields(
    input=frozenset({"artifact_name", "version", "markdown"}),
    expected=frozenset({"reconciled_markdown", "codex_toml", "source_checksum", "codex_checksum"}),
)
VERSION_GUARD = Fields(
    input=frozenset({"bundled_version", "tracked", "installed_version", "disk_state", "force"}),
    expected=frozenset({"kind", "from", "installed", "will_write", "blocked"}),
)
PATHS = Fields(
    input=frozenset({"platform", "kind", "scope"}),
    expected=frozenset({"subpath", "lockname"}),
)


def parse_scope(text: object) -> Scope:
    for scope in Scope:
        if scope.value == text:
            return scope
    raise FixtureError(f"unknown scope {text!r}")


def parse_platform(text: object) -> Platform:
    if type(text) is not str:
        raise FixtureError(f"platform must be a string, got {text!r}")
    try:
        return Platform.parse(text)
    except ValueError:
        raise FixtureError(f"unknown platform {text!r}") from None


def run_checksum(case: Case) -> str | None:
    files = typed(case, case.input, "files", list)
    pairs: list[tuple[str, bytes]] = []
    for item in files:
        if type(item) is not dict or set(item) != {"path", "content_utf8"}:
            raise FixtureError("each file needs exactly path and content_utf8")
        path, content = item["path"], item["content_utf8"]
        if type(path) is not str or type(content) is not str:
            raise FixtureError("file path and content_utf8 must be strings")
        pairs.append((normalize_rel_path(path), content.encode("utf-8")))
    order = canonical_order(path for path, _ in pairs)
    actual = {
        "sha256": checksum_pairs(pairs),
        "canonical_order": order,
        "canonical_included_paths": order,
    }
    return diff_json(dict(case.expected), actual)


def run_frontmatter(case: Case) -> str | None:
    version = typed(case, case.input, "version", str)
    source = fixture_path(case, typed(case, case.input, "skill_md_path", str)).read_bytes()
    expected = fixture_path(case, typed(case, case.expected, "skill_md_path", str)).read_bytes()
    if typed(case, case.expected, "byte_exact", bool) is not True:
        raise FixtureError("byte_exact=false has no defined comparison")
    once = reconcile_skill_md_bytes(source, version)
    problem = diff_bytes(expected, once)
    if problem is None and typed(case, case.expected, "idempotent_second_pass", bool):
        problem = diff_bytes(once, reconcile_skill_md_bytes(once, version))
        problem = None if problem is None else f"second pass changed the output: {problem}"
    return problem


def run_agent_transform(case: Case) -> str | None:
    artifact = ToolIdentity(
        typed(case, case.input, "artifact_name", str), typed(case, case.input, "version", str)
    )
    transform = AgentTransform.of(typed(case, case.input, "markdown", str), artifact)
    checks = {
        "reconciled_markdown": diff_text(
            typed(case, case.expected, "reconciled_markdown", str), transform.reconciled_markdown
        ),
        "codex_toml": diff_text(
            typed(case, case.expected, "codex_toml", str), transform.codex_toml
        ),
    }
    problems = [f"{key}: {msg}" for key, msg in checks.items() if msg]
    sums = {
        "source_checksum": transform.source_checksum,
        "codex_checksum": checksum_bytes(transform.codex_toml.encode("utf-8")),
    }
    expected_sums = {key: case.expected[key] for key in sums}
    sum_problem = diff_json(expected_sums, sums)
    if sum_problem:
        problems.append(sum_problem)
    return "; ".join(problems) or None


def run_version_guard(case: Case) -> str | None:
    disk_token = typed(case, case.input, "disk_state", str)
    disk = next((d for d in DiskState if d.value == disk_token), None)
    if disk is None:
        raise FixtureError(f"unknown disk_state {disk_token!r}")
    action = decide_action(
        bundled_version=typed(case, case.input, "bundled_version", str),
        tracked=typed(case, case.input, "tracked", bool),
        installed_version=optional_str(case.input, "installed_version"),
        disk=disk,
        force=typed(case, case.input, "force", bool),
    )
    return diff_json(dict(case.expected), action.to_json())


def run_paths(case: Case) -> str | None:
    platform = parse_platform(case.input["platform"])
    kinds = {k.value: k for k in ArtifactKind}
    kind_token = case.input["kind"]
    if kind_token not in kinds:
        raise FixtureError(f"unknown kind {kind_token!r}")
    scope = parse_scope(case.input["scope"])
    actual = {
        "subpath": platform.subpath(kinds[kind_token], scope),
        "lockname": platform.lockname,
    }
    return diff_json(dict(case.expected), actual)
