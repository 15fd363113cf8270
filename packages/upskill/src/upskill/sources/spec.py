"""The `<source>` grammar (ADR-0011) and the labels recorded in the lockfile.

A source is parsed once into an immutable `SourceSpec`; its `label` is the
string the lockfile stores and `remove --source` matches exactly, so the label
must be a pure function of the spec and `parse_label` its inverse.
"""

from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from upskill.errors import UpskillError, UsageError

BUNDLE_SUFFIX = ".bundle.yaml"
_GITHUB_PREFIX = "https://github.com/"
_NAME_PART = re.compile(r"^[A-Za-z0-9._-]+$")
_OWNER_START = re.compile(r"^[A-Za-z0-9]")  # GitHub owners begin with a letter or digit
_HOST = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$")
_PORT = re.compile(r"^([0-9]{1,5}):")


class SourceKind(StrEnum):
    GITHUB = "github"
    GIT = "git"
    LOCAL = "local"


class SourceError(UpskillError):
    """A source string or a recorded label that cannot be understood."""


@dataclass(frozen=True)
class SourceSpec:
    """One source: a GitHub repo, any git remote, or a local directory/bundle file.

    `location` is `owner/repo` (GitHub); for any other git remote, the https URL
    without `.git`, or the `ssh://`, `file://` or `user@host:path` URL as typed
    (its path is the remote's own name for the repository, `.git` or not); or an
    absolute path (local).

    `anchor` is the project root of the scope the source is recorded in (None in
    the global scope): a local source inside it is labelled relative to it
    (`local:./path`), so a committed lockfile works wherever the project is
    checked out. It does not take part in equality: the same directory is the same
    source however it was named.
    """

    kind: SourceKind
    location: str
    ref: str | None = None
    subpath: str | None = None
    anchor: str | None = field(default=None, compare=False, repr=False)

    @property
    def label(self) -> str:
        if self.kind is SourceKind.LOCAL:
            inside = _inside(self.location, self.anchor)
            return f"local:{self.location if inside is None else inside}"
        head = f"github:{self.location}" if self.kind is SourceKind.GITHUB else self.location
        if self.ref:
            head += f"@{self.ref}"
        if self.subpath:
            head += f":{self.subpath}"
        return head

    @property
    def is_git(self) -> bool:
        return self.kind is not SourceKind.LOCAL

    @property
    def bundle_path(self) -> str | None:
        """The explicit bundle file this source names, if any (subpath or local path)."""
        target = self.location if self.kind is SourceKind.LOCAL else (self.subpath or "")
        return target if target.endswith(BUNDLE_SUFFIX) else None

    def clone_url(self, github_base: str = "https://github.com") -> str:
        if self.kind is SourceKind.GITHUB:
            return f"{github_base.rstrip('/')}/{self.location}.git"
        if self.kind is SourceKind.GIT:
            https = self.location.startswith("https://")
            return f"{self.location}.git" if https else self.location
        raise SourceError(f"{self.label}: a local source has no clone URL")

    def repo_key(self) -> str:
        """Sources sharing one repository (any ref/subpath) share one clone."""
        return f"{self.kind.value}:{self.location}"


def _split_ref_sub(rest: str, original: str) -> tuple[str, str | None, str | None]:
    """Split `base[@ref][:sub]`: on `:` first, then `@` (ADR-0011)."""
    sub: str | None = None
    if ":" in rest:
        rest, sub = rest.split(":", 1)
        if not sub:
            raise UsageError(f"invalid source {original!r}: empty subpath after ':'")
    ref: str | None = None
    if "@" in rest:
        rest, ref = rest.split("@", 1)
        if not ref:
            raise UsageError(f"invalid source {original!r}: empty ref after '@'")
    if sub is not None:
        sub = _clean_subpath(sub, original)
    return rest, ref, sub


def _clean_subpath(sub: str, original: str) -> str:
    parts = [p for p in sub.strip("/").split("/") if p not in ("", ".")]
    if not parts or any(p == ".." for p in parts):
        raise UsageError(f"invalid source {original!r}: subpath {sub!r} must stay inside the repo")
    return "/".join(parts)


def _inside(location: str, anchor: str | None) -> str | None:
    """`./<path>` (or `.`) for a location inside `anchor`; None outside it or without one."""
    if anchor is None:
        return None
    path, root = Path(location), Path(anchor)
    if path == root:
        return "."
    return f"./{path.relative_to(root).as_posix()}" if path.is_relative_to(root) else None


def parse_source(text: str, *, cwd: Path, home: Path, anchor: Path | None = None) -> SourceSpec:
    """Parse what a user typed after `upskill add`; `anchor`: the project root a local
    source inside it is labelled relative to (`SourceSpec.anchor`)."""
    spec = _parse_source(text, cwd=cwd, home=home)
    if spec.kind is SourceKind.LOCAL and anchor is not None:
        return SourceSpec(spec.kind, spec.location, anchor=str(_absolute(anchor)))
    return spec


def _parse_source(text: str, *, cwd: Path, home: Path) -> SourceSpec:
    original = text
    if not text.strip():
        raise UsageError("empty source")
    if text.startswith(("gitlab:", "gitlab+")):
        raise UsageError(
            f"the {text.split(':', 1)[0]}: shorthand was removed; "
            "use the full https URL instead, e.g. https://gitlab.com/group/repo"
        )
    if text.startswith(("./", "../", "/")) or text in (".", ".."):
        return SourceSpec(SourceKind.LOCAL, str(_absolute(cwd / text)))
    if text == "~" or text.startswith("~/"):
        return SourceSpec(SourceKind.LOCAL, str(_absolute(home / text[2:])))
    if text.startswith("https://"):
        return _parse_https(text, original)
    remote = _parse_other_git(text, original)
    if remote is not None:
        return remote
    if "://" in text or text.startswith(("http:", "git@", "ssh:", "file:")):
        raise UsageError(
            f"unsupported source {original!r}: use owner/repo, an https, ssh:// or file:// URL, "
            "or user@host:path"
        )
    base, ref, sub = _split_ref_sub(text, original)
    owner_repo = base.split("/")
    if (
        len(owner_repo) != 2
        or not all(_NAME_PART.match(p) for p in owner_repo)
        or (not _OWNER_START.match(owner_repo[0]))
    ):
        if (cwd / text).exists():
            # Not something GitHub could host (`.upskill/registry`, `registry`), but a
            # path here: the local source the user meant, as if typed with `./`.
            return SourceSpec(SourceKind.LOCAL, str(_absolute(cwd / text)))
        raise UsageError(
            f"invalid source {original!r}: expected owner/repo[@ref][:path], "
            "an https URL or a local path (./, ../, /, ~)"
        )
    return SourceSpec(SourceKind.GITHUB, base.removesuffix(".git"), ref, sub)


def _parse_https(text: str, original: str) -> SourceSpec:
    rest = text[len("https://") :]
    host, _, path = rest.partition("/")
    if not host or not path:
        raise UsageError(f"invalid source {original!r}: no repository path in the URL")
    if "@" in host:
        raise UsageError(
            f"invalid source {original!r}: credentials do not belong in the URL; "
            "configure a git credential helper instead"
        )
    path, ref, sub = _split_ref_sub(path, original)
    path = path.rstrip("/").removesuffix(".git").rstrip("/")
    segments = path.split("/")
    if not path or any(s in ("", ".", "..") for s in segments):
        raise UsageError(f"invalid source {original!r}: malformed repository path")
    if host.lower() == "github.com":
        if len(segments) != 2:
            raise UsageError(f"invalid source {original!r}: expected github.com/owner/repo")
        return SourceSpec(SourceKind.GITHUB, path, ref, sub)
    return SourceSpec(SourceKind.GIT, f"https://{host}/{path}", ref, sub)


_USER = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]*$")
_SCP = re.compile(r"^([^@/:]+)@([^@/:]+):(.+)$")


def _parse_other_git(text: str, original: str) -> SourceSpec | None:
    """`ssh://[user@]host[:port]/path`, scp-like `user@host:path` and `file:///path`, each
    with the usual `[@ref][:subpath]`; None when `text` is none of these. The URL is
    handed to git as typed, so the user's git configuration (`insteadOf`, ssh keys,
    credential helpers) applies. Hosts, users and path segments that could read as a
    command-line option (a leading `-`) are refused."""
    if text.startswith("ssh://"):
        authority, slash, rest = text[len("ssh://") :].partition("/")
        user, at, hostport = authority.rpartition("@")
        if at and (not _USER.match(user) or ":" in user):
            raise UsageError(
                f"invalid source {original!r}: credentials do not belong in the URL; "
                "configure ssh keys or a git credential helper instead"
            )
        host, colon, port = hostport.partition(":")
        if not slash or not _HOST.match(host) or (colon and not port.isdigit()):
            raise UsageError(f"invalid source {original!r}: expected ssh://[user@]host[:port]/path")
        path, ref, sub = _split_ref_sub(rest, original)
        return SourceSpec(
            SourceKind.GIT, f"ssh://{authority}/{_remote_path(path, original)}", ref, sub
        )
    if text.startswith("file://"):
        rest = text[len("file://") :]
        if not rest.startswith("/"):
            raise UsageError(f"invalid source {original!r}: expected file:///absolute/path")
        path, ref, sub = _split_ref_sub(rest, original)
        return SourceSpec(SourceKind.GIT, f"file://{_remote_path(path, original)}", ref, sub)
    scp = _SCP.match(text)
    if scp is None or "://" in text:
        return None
    user, host, rest = scp.groups()
    if not _USER.match(user) or not _HOST.match(host):
        raise UsageError(f"invalid source {original!r}: expected user@host:path")
    path, ref, sub = _split_ref_sub(rest, original)
    return SourceSpec(SourceKind.GIT, f"{user}@{host}:{_remote_path(path, original)}", ref, sub)


def _remote_path(path: str, original: str) -> str:
    """The repository path of an ssh, scp-like or file URL, checked and without a trailing
    slash (a leading one is kept: it is absolute on the remote)."""
    trimmed = path.rstrip("/")
    segments = trimmed.lstrip("/").split("/")
    if any(s in ("", ".", "..") or s.startswith("-") for s in segments):
        raise UsageError(f"invalid source {original!r}: malformed repository path")
    return trimmed


def _absolute(path: Path) -> Path:
    # Resolve `..` without requiring existence so a missing path still gets a clean label.
    return Path(os.path.normpath(path.absolute()))


def parse_label(label: str, anchor: Path | None = None) -> SourceSpec:
    """Invert `SourceSpec.label` for a lockfile record. `anchor`: the project root a
    relative `local:./path` label is read against (and an absolute one inside it is
    labelled relative to from now on); without one, a relative label is an error."""
    if label.startswith("local:"):
        path = label[len("local:") :]
        if not path:
            raise SourceError(f"invalid recorded source label {label!r}")
        root = None if anchor is None else str(_absolute(anchor))
        if not path.startswith("/"):
            parts = path.split("/")
            if root is None or parts[0] != "." or ".." in parts:
                raise SourceError(
                    f"invalid recorded source label {label!r}: a relative local source is "
                    "`local:./path` inside the project, read from a project lockfile"
                )
            path = str(_absolute(Path(root) / path))
        return SourceSpec(SourceKind.LOCAL, path, anchor=root)
    if label.startswith("github:"):
        base, ref, sub = _split_ref_sub(label[len("github:") :], label)
        return SourceSpec(SourceKind.GITHUB, base, ref, sub)
    if label.startswith("https://"):
        return _parse_https(label, label)
    try:
        remote = _parse_other_git(label, label)
    except UsageError as exc:
        raise SourceError(f"invalid recorded source label {label!r}: {exc}") from None
    if remote is not None:
        return remote
    if label.startswith(("gitlab:", "gitlab+")):
        return _parse_historical(label)
    raise SourceError(f"unrecognised recorded source label {label!r}")


def _parse_historical(label: str) -> SourceSpec:
    """Old lockfiles' `gitlab:group/repo…` and `gitlab+host[:port]:group/…/repo…` labels
    read as the equivalent https source (update then records the https label)."""
    guidance = (
        f"recorded source {label!r} is not an unambiguous historical gitlab label; "
        "verify the https URL, ref and subfolder, then `upskill remove --source` it and "
        "`upskill add https://<host>/<group>/<repo>[@ref][:path]`"
    )
    if label.startswith("gitlab:"):
        host, rest = "gitlab.com", label[len("gitlab:") :]
    else:
        host, sep, rest = label[len("gitlab+") :].partition(":")
        if not sep or not _HOST.match(host):
            raise SourceError(guidance)
        port = _PORT.match(rest)
        if port is not None:
            if not 0 < int(port.group(1)) < 65536:
                raise SourceError(guidance)
            host, rest = f"{host}:{port.group(1)}", rest[port.end() :]
    try:
        path, ref, sub = _split_ref_sub(rest, label)
    except UsageError:
        raise SourceError(guidance) from None
    segments = path.split("/")
    if len(segments) < 2 or not all(_NAME_PART.match(s) and s not in (".", "..") for s in segments):
        raise SourceError(guidance)
    return SourceSpec(SourceKind.GIT, f"https://{host}/{path.removesuffix('.git')}", ref, sub)


def canonical_label(label: str, anchor: Path | None = None) -> str:
    """The label `update` writes for a recorded one (historical labels become https; an
    absolute local path inside the project `anchor` becomes relative)."""
    try:
        return parse_label(label, anchor).label
    except (SourceError, UsageError):
        return label


def recorded_spec_of(label: str, spec: SourceSpec) -> SourceSpec | None:
    """The spec a lockfile label records when it names `spec`'s repository and path at
    any ref (None otherwise): an `add` of that source re-pins such items, aliases
    included, instead of conflicting with them."""
    try:
        before = parse_label(label, None if spec.anchor is None else Path(spec.anchor))
    except (SourceError, UsageError):
        return None
    same = dataclasses.replace(before, ref=None) == dataclasses.replace(spec, ref=None)
    return before if same else None
