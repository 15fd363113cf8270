"""Policy v0: `allow <subject_type> <class>:<name> <perm>` lines; default deny, exact matches."""

from __future__ import annotations

from dataclasses import dataclass

from cortexfs.names import name_problem

# Fixed classes and their permissions (tool-policy-abi, policy model).
CLASS_PERMISSIONS: dict[str, frozenset[str]] = {
    "tool": frozenset({"execute"}),
    "model": frozenset({"use"}),
    "shared": frozenset({"read", "write"}),
    "session": frozenset({"read", "write", "resume"}),
    "mount": frozenset({"read", "write"}),
    "agent": frozenset({"create", "start", "stop", "read", "write"}),
    "network": frozenset({"connect"}),
}


class PolicyError(ValueError):
    """A policy line that is not v0; the filesystem answers EINVAL for it."""

    def __init__(self, line_no: int, message: str) -> None:
        super().__init__(f"line {line_no}: {message}")
        self.line_no = line_no


@dataclass(frozen=True)
class Rule:
    subject: str
    object_class: str
    object_name: str
    permission: str

    def render(self) -> str:
        return f"allow {self.subject} {self.object_class}:{self.object_name} {self.permission}"


@dataclass(frozen=True)
class Policy:
    rules: frozenset[Rule]

    def allows(self, subject: str, object_class: str, object_name: str, permission: str) -> bool:
        return Rule(subject, object_class, object_name, permission) in self.rules


def _subject_problem(subject: str) -> str | None:
    if not subject or not all(c.isalnum() or c in "_-." for c in subject):
        return f"bad subject type {subject!r}"
    return None


def _object_name_problem(object_class: str, name: str) -> str | None:
    if object_class == "network":
        return None if name == "default" else "network rules only name 'default'"
    if object_class == "model":
        parts = name.split("/")
        if len(parts) > 2 or any(name_problem(part) for part in parts):
            return f"bad model name {name!r}"
        return None
    problem = name_problem(name)
    return f"bad object name {name!r}: {problem}" if problem else None


def parse_rule(line: str, line_no: int) -> Rule:
    fields = line.split(" ")
    if len(fields) != 4 or any(not f for f in fields):
        raise PolicyError(line_no, "expected exactly 'allow <subject_type> <class>:<name> <perm>'")
    verb, subject, target, permission = fields
    if verb != "allow":
        raise PolicyError(line_no, f"unknown verb {verb!r}; only 'allow' exists")
    object_class, sep, object_name = target.partition(":")
    if not sep:
        raise PolicyError(line_no, f"object {target!r} is not <class>:<name>")
    if object_class not in CLASS_PERMISSIONS:
        raise PolicyError(line_no, f"unknown class {object_class!r}")
    if permission not in CLASS_PERMISSIONS[object_class]:
        raise PolicyError(line_no, f"class {object_class!r} has no permission {permission!r}")
    for problem in (_subject_problem(subject), _object_name_problem(object_class, object_name)):
        if problem:
            raise PolicyError(line_no, problem)
    return Rule(subject, object_class, object_name, permission)


def parse_policy(text: str) -> Policy:
    """Parse a whole policy file; blank lines are skipped, everything else must be a rule."""
    rules = [
        parse_rule(line, number)
        for number, line in enumerate(text.split("\n"), start=1)
        if line.strip() != ""
    ]
    return Policy(frozenset(rules))
