"""Which files the author commands act on, and the consumer-project guard.

Discovery is `upskill.format`'s own (the one `upskill add` uses), so lint and
fmt see exactly what an install would read: item directories found below the
root (an item directory itself when passed directly), `*.bundle.yaml`
anywhere outside hidden directories. A discovered bundle without a top-level
integer `schema:` is skipped; one named on the command line is always checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from upskill.clients import OVERRIDE_CLIENTS
from upskill.errors import UsageError
from upskill.format.bundles import BUNDLE_SUFFIX, is_discoverable_bundle
from upskill.format.discover import bundle_files, source_layout
from upskill.format.model import ENTRYPOINTS, KINDS

LOCKFILE = ".upskill-lock.json"


@dataclass(frozen=True)
class Target:
    """One SSOT file to check or format. `explicit` when named on the command line."""

    path: Path
    kind: str  # rule | skill | agent | bundle | override
    explicit: bool = False

    @property
    def body_kind(self) -> str:
        """The item kind whose body this file holds (an override's entrypoint kind)."""
        if self.kind == "override":
            return str(ENTRYPOINTS[f"{self.path.name.split('.', 1)[0]}.md"])
        return self.kind


OVERRIDE_NAMES: frozenset[str] = frozenset(
    f"{kind.name}.{client}.md" for kind in KINDS for client in OVERRIDE_CLIENTS
)


def kind_of(path: Path) -> str | None:
    if path.name in ENTRYPOINTS:
        return str(ENTRYPOINTS[path.name])
    if path.name in OVERRIDE_NAMES:
        return "override"
    if path.name.endswith(BUNDLE_SUFFIX) and len(path.name) > len(BUNDLE_SUFFIX):
        return "bundle"
    return None


def _walk(root: Path) -> list[Target]:
    found = [
        Target(directory / name, kind)
        for directory in source_layout(root).directories
        for name in sorted(ENTRYPOINTS.keys() | OVERRIDE_NAMES)
        if (kind := kind_of(Path(name))) is not None and (directory / name).is_file()
    ]
    found.extend(
        Target(path, "bundle") for path in bundle_files(root) if is_discoverable_bundle(path)
    )
    return sorted(found, key=lambda target: target.path.as_posix())


def discover_targets(paths: Sequence[Path], cwd: Path = Path()) -> list[Target]:
    """Expand command-line paths into SSOT files, in a stable order, without duplicates.

    A relative path is read against `cwd` (the run's working directory, not the
    process's) and named as given in errors; the targets' paths include `cwd`."""
    targets: list[Target] = []
    for path in paths:
        full = cwd / path
        if full.is_file():
            kind = kind_of(full)
            if kind is None:
                raise UsageError(
                    "not an SSOT file (expected RULE.md, SKILL.md, AGENT.md, "
                    "a <KIND>.<client>.md override or *.bundle.yaml)",
                    path=path,
                )
            targets.append(Target(full, kind, explicit=True))
        elif full.is_dir():
            targets.extend(_walk(full))
        else:
            raise UsageError("no such file or directory", path=path)
    seen: set[Path] = set()
    unique: list[Target] = []
    for target in targets:
        key = target.path.resolve()
        if key not in seen:
            seen.add(key)
            unique.append(target)
    return unique


def ensure_source_registry(roots: Sequence[Path], cwd: Path = Path()) -> None:
    """Refuse to run an author command where a consumer lockfile sits at the root
    (relative roots are read against `cwd`, and named as given)."""
    for root in roots:
        directory = root if (cwd / root).is_dir() else root.parent
        lockfile = directory / LOCKFILE
        if (cwd / lockfile).exists():
            raise UsageError(
                f"{lockfile} marks a consumer project; author commands "
                "(new, lint, fmt) run in a source registry"
            )


def command_targets(paths: Sequence[Path], cwd: Path) -> list[Target]:
    """The targets of a `lint`/`fmt` invocation: paths (default `.`) read against the run's
    working directory `cwd`, guarded, discovered."""
    roots = list(paths) or [Path()]
    ensure_source_registry(roots, cwd)
    return discover_targets(roots, cwd)
