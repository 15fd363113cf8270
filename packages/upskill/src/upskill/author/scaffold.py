"""`upskill new`: the minimum generation-ready entrypoint for a rule, skill or agent.

The templates are already canonical (frontmatter in §3.8 order, body as the
pinned formatter writes it), so a fresh scaffold is a no-op for `upskill fmt`
and clean under `upskill lint --strict`; tests hold both properties.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from upskill.errors import UpskillError, UsageError
from upskill.format.model import Kind

_FRONTMATTER = {
    "rule": (
        "schema: 1\n"
        "name: {name}\n"
        "description: TODO say in one sentence which work this rule constrains\n"
    ),
    "skill": (
        "schema: 1\n"
        "name: {name}\n"
        "description: TODO Use when ... (the activation hint; aim for 200 characters or fewer)\n"
    ),
    "agent": (
        "schema: 1\n"
        "name: {name}\n"
        "description: TODO Use when ... (say when to delegate to this agent)\n"
        "mode: subagent\n"
        "model: sonnet\n"
    ),
}

_BODY = {
    "rule": (
        "## {title}\n"
        "\n"
        "- TODO state one always-on constraint per bullet, starting with Always or Never.\n"
        "- Keep rules short: every session loads them.\n"
    ),
    "skill": (
        "## {title}\n"
        "\n"
        "TODO describe the procedure this skill teaches.\n"
        "\n"
        "1. TODO first step.\n"
        "2. TODO next step.\n"
    ),
    "agent": (
        "## {title}\n"
        "\n"
        "You are TODO (the role). When invoked:\n"
        "\n"
        "1. TODO what to examine first.\n"
        "2. TODO how to report findings.\n"
    ),
}


@dataclass(frozen=True)
class Scaffold:
    """A planned entrypoint: where it goes and its exact bytes."""

    kind: str
    name: str
    path: Path
    data: bytes


def parse_kind(kind: str) -> Kind:
    try:
        return Kind(kind)
    except ValueError:
        raise UsageError(f"unknown kind {kind!r} (expected one of: rule, skill, agent)") from None


def validate_name(name: str, kind: str) -> str:
    """Apply format spec §2.1 name rules (Agent Skills' for skills) to a command-line name."""
    from upskill.format.names import name_problem

    problem = name_problem(name, skill=kind == "skill")
    if problem is not None:
        raise UsageError(f"invalid name: {problem}")
    return name


def title(name: str) -> str:
    words = name.replace("-", " ")
    return words[:1].upper() + words[1:]


def render_scaffold(kind: str, name: str) -> str:
    """The entrypoint text for a new item (pure)."""
    front = _FRONTMATTER[kind].format(name=name)
    body = _BODY[kind].format(title=title(name))
    return f"---\n{front}---\n\n{body}"


def _skill_name(path: Path) -> str:
    """The effective name of an existing skill entrypoint (its directory when unnamed)."""
    from upskill.format.frontmatter import split_frontmatter
    from upskill.format.items import read_text
    from upskill.format.yamlio import load_yaml

    document = split_frontmatter(read_text(path), path)
    data = load_yaml(document.yaml, path, first_line=document.yaml_line)
    declared = data.get("name") if isinstance(data, dict) else None
    return declared if isinstance(declared, str) else path.parent.name


def plan_scaffold(cwd: Path, kind: str, name: str) -> Scaffold:
    """Decide where the entrypoint goes, refusing overwrites and diverging co-location.

    Errors name the files relative to `cwd`, as the user named the item."""
    entry_kind = parse_kind(kind)
    validate_name(name, kind)
    directory = cwd / name
    path = directory / entry_kind.entrypoint
    if directory.exists() and not directory.is_dir():
        raise UpskillError(f"{name} exists and is not a directory", path=name)
    if path.exists() or path.is_symlink():
        raise UpskillError(
            "already exists; refusing to overwrite", path=Path(name, entry_kind.entrypoint)
        )
    skill = directory / Kind.SKILL.entrypoint
    if entry_kind is not Kind.SKILL and skill.is_file():
        existing = _skill_name(skill)
        if existing != name:
            raise UpskillError(
                f"existing skill is named {existing!r}, not {name!r}; "
                "co-location needs the skill's name to match the directory",
                path=Path(name, Kind.SKILL.entrypoint),
            )
    data = render_scaffold(kind, name).encode("utf-8")
    return Scaffold(kind=kind, name=name, path=path, data=data)
