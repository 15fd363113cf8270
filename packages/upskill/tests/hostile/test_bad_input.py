"""No traceback, no hang, no secret read on hostile input (issue 13 "any input", issue 24, 2-3).

Each case is one clear error line (or warning) naming the file, a documented exit code,
and nothing outside the project read into it. Every run has a timeout: a FIFO that
blocked would fail the test instead of hanging it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hostile_state import NO_CLIENT_CLIS as BIN
from hostile_state import SERVER_BUNDLE as BUNDLE

SECRET = "SECRET-TOKEN-0123"


@pytest.fixture
def reg(registry: Path) -> Path:
    (registry / "skills" / "b.bundle.yaml").write_text(BUNDLE)
    return registry


def _frontmatter(registry: Path, extra: str) -> Path:
    path = registry / "skills" / "review" / "SKILL.md"
    path.write_text(
        f"---\nschema: 1\nname: review\ndescription: Use when reviewing.\n{extra}\n---\n\nBody.\n"
    )
    return path


def _laughs() -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    return "x-bomb:\n" + "\n".join(f"  {line}" for line in lines)


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        ("x-self: &a [*a]", "invalid YAML: nested deeper than 64 levels (or refers to itself)"),
        ("x-deep: " + "[" * 5000 + "]" * 5000, "invalid YAML: nested deeper than 64 levels"),
        (_laughs(), "invalid YAML: more than 100000 values once aliases are expanded"),
    ],
    ids=["recursion", "deep", "billion-laughs"],
)
def test_yaml_bombs_are_one_error(cli, project, registry, extra, problem) -> None:  # type: ignore[no-untyped-def]
    path = _frontmatter(registry, extra)
    out = cli.run("add", str(registry), "review", cwd=project)
    assert out.returncode == 1
    assert out.stderr.endswith(f"upskill: error: {path}:2: {problem}\n")
    assert not (project / ".claude").exists()


def test_an_anchor_defined_twice_is_one_error_at_its_second_line(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    # YAML 1.2 would let the second `&d` replace the first; ruamel accepts it with a raw
    # Python warning on the terminal. upskill refuses it like a duplicate key.
    path = _frontmatter(registry, "metadata:\n  a: &d one\n  b: &d two\n  c: *d")
    out = cli.run("add", str(registry), "review", cwd=project)
    assert (out.returncode, out.stdout) == (1, "")
    assert out.stderr == f"upskill: error: {path}:7: invalid YAML: anchor &d is defined twice\n"
    assert not (project / ".claude").exists()


def test_resources_too_deep_and_non_utf8_names(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    deep = registry / "skills" / "review" / "references"
    for _ in range(70):  # past the 64-directory bound (the 1,100 overflowed recursion)
        deep = deep / "d"
    deep.mkdir(parents=True)
    (deep / "f.md").write_text("x\n")
    out = cli.run("add", str(registry), "review", cwd=project)
    assert out.returncode == 1
    assert "resources nest deeper than 64 directories\n" in out.stderr
    assert "Traceback" not in out.stderr
    os.system(f"rm -rf '{registry / 'skills' / 'review' / 'references' / 'd'}'")
    bad = os.fsencode(registry / "skills" / "review") + b"/bad\xff.md"
    Path(os.fsdecode(bad)).write_text("x\n")
    out = cli.run("add", str(registry), "review", cwd=project)
    assert out.returncode == 1
    assert out.stderr.endswith(
        f"upskill: error: {registry / 'skills' / 'review'}/bad\\xff.md: "
        "file name is not valid UTF-8\n"
    )


def test_a_symlink_loop_in_resources_is_not_followed(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    refs = registry / "skills" / "review" / "references"
    (refs / "loop").symlink_to(".")
    out = cli.run("add", str(registry), "review", "--claude", cwd=project)
    assert out.returncode == 0, out.stderr
    assert not (project / ".claude/skills/review/references/loop").exists()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"schema": 1, "x": ' + "[" * 200_000 + "]" * 200_000 + "}", "JSON nested too deeply"),
        ('{"schema": 1, "x": ' + "9" * 5000 + "}", "(invalid JSON): Exceeds the limit"),
    ],
    ids=["deep", "huge-number"],
)
@pytest.mark.parametrize("argv", [("list",), ("doctor",), ("update",), ("remove", "style")])
def test_a_hostile_lockfile_is_one_error(cli, project, text, problem, argv) -> None:  # type: ignore[no-untyped-def]
    (project / ".upskill-lock.json").write_text(text)
    out = cli.run(*argv, cwd=project)
    assert out.returncode == 1
    assert out.stderr.startswith(
        f"upskill: error: {project / '.upskill-lock.json'}: malformed lockfile"
    )
    assert problem in out.stderr and "Traceback" not in out.stderr


def _assert_reported(out, line: str, level: str) -> None:  # type: ignore[no-untyped-def]
    """An `error` stops the run with exactly that line last; a `warning` lets it finish."""
    if level == "error":
        assert out.returncode == 1
        assert out.stderr.endswith(f"upskill: error: {line}\n")
    else:
        assert out.returncode == 0
        assert f"{line}\n" in out.stderr


FIFOS = {
    "opencode.json": (("--opencode",), "error"),
    ".vscode/settings.json": (("--vscode",), "error"),
    ".upskill-lock.json": ((), "error"),
    ".upskill/config.yaml": ((), "error"),
    ".mcp.json": (("--claude",), "warning"),
    ".vscode/mcp.json": (("--vscode",), "warning"),
}


@pytest.mark.parametrize("rel", FIFOS)
def test_a_fifo_in_place_of_a_file_never_blocks(cli, project, reg, rel) -> None:  # type: ignore[no-untyped-def]
    flags, level = FIFOS[rel]
    (project / rel).parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(project / rel)
    out = cli.run("add", str(reg), "b", *flags, cwd=project, extra=BIN)
    _assert_reported(out, f"{project / rel}: is not a regular file", level)


SECRET_LINKS = {
    ".mcp.json": (("--claude",), "warning"),
    "CLAUDE.md": (("--claude",), "error"),
    ".upskill/config.yaml": ((), "error"),
    ".upskill-lock.json": ((), "error"),
    "opencode.json": (("--opencode",), "error"),
}


@pytest.mark.parametrize("rel", SECRET_LINKS)
def test_a_project_file_linked_to_a_secret_is_never_read(cli, project, reg, rel) -> None:  # type: ignore[no-untyped-def]
    flags, level = SECRET_LINKS[rel]
    secret = cli.home / ".claude.json"
    secret.write_text('{"oauthAccount": "' + SECRET + '", "mcpServers": {}}\n')
    before = secret.read_bytes()
    (project / rel).parent.mkdir(parents=True, exist_ok=True)
    (project / rel).symlink_to(secret)
    (project / "AGENTS.md").write_text("# Team\n")  # so CLAUDE.md is one upskill maintains
    out = cli.run("add", str(reg), "b", *flags, cwd=project, extra=BIN)
    line = (
        f"{project / rel}: resolves outside {project} (a symlink); refusing to read or replace it"
    )
    _assert_reported(out, line, level)
    assert SECRET not in out.stdout + out.stderr
    assert secret.read_bytes() == before
    for path in project.rglob("*"):
        if path.is_file() and not path.is_symlink():
            assert SECRET not in path.read_text(errors="replace"), path


@pytest.mark.parametrize(
    ("rel", "flag"), [(".mcp.json", "--claude"), (".vscode/mcp.json", "--vscode")]
)
def test_a_config_nested_100k_deep_is_one_warning(cli, project, reg, rel, flag) -> None:  # type: ignore[no-untyped-def]
    (project / rel).parent.mkdir(parents=True, exist_ok=True)
    (project / rel).write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    out = cli.run("add", str(reg), "b", flag, cwd=project, extra=BIN)
    assert out.returncode == 0
    assert f"{project / rel}:1: invalid JSON: nested too deeply\n" in out.stderr
    assert "Traceback" not in out.stderr


def test_only_0644_and_0755_leave_a_registry(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    refs = registry / "skills" / "review" / "references"
    modes = {"suid.sh": 0o4755, "sgid.sh": 0o2750, "world.md": 0o666, "sticky.md": 0o1644}
    for name, mode in modes.items():
        (refs / name).write_text("x\n")
        os.chmod(refs / name, mode)
    cli.ok("add", str(registry), "review", "--claude", cwd=project)
    out = project / ".claude" / "skills" / "review" / "references"
    seen = {name: oct(os.lstat(out / name).st_mode & 0o7777) for name in modes}
    assert seen == {
        "suid.sh": "0o755",
        "sgid.sh": "0o755",
        "world.md": "0o644",
        "sticky.md": "0o644",
    }


def test_an_invalid_ignore_pattern_is_a_located_error(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    path = _frontmatter(registry, 'ignore:\n  - "[z-a]"')
    out = cli.run("add", str(registry), "review", cwd=project)
    assert out.returncode == 1
    assert out.stderr.endswith(
        f"upskill: error: {path}:5: invalid `ignore:` pattern: bad character range z-a at "
        "position 10\n"
    )
    lint = cli.run("lint", str(registry), cwd=project)
    assert lint.returncode == 1 and "invalid `ignore:` pattern" in lint.stdout


def test_resources_that_add_up_past_the_item_cap_are_refused(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    """Each file under the per-file cap, together over the per-item total (sparse files:
    the sizes are real, the disk use is not)."""
    refs = registry / "skills" / "review" / "references"
    for i in range(5):
        with (refs / f"big{i}.bin").open("wb") as f:
            f.truncate(60 * 1024 * 1024)
    out = cli.run("add", str(registry), "review", cwd=project)
    assert out.returncode == 1
    assert out.stderr.endswith(
        f"upskill: error: {refs / 'big4.bin'}: the item's resources exceed 268435456 bytes "
        "in total\n"
    )
    assert not (project / ".claude").exists()
