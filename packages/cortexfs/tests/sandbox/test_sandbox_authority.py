"""Inside a sandbox with a writable /ctx, nothing that carries authority is writable:
objects and their controls (its own, a sibling's of the same owner, a tool or model it
could then call through the broker, which runs it outside the sandbox), the uid's home
(only the agent's own state directory in it), and shared spaces other than those its
policy names."""

from __future__ import annotations

import json
import os
import subprocess
import uuid

from cortexfs.ctl_write import write_control


def _shell(world, make_agent, *allow: str, extra: tuple[str, ...] = ()):
    """An agent running /bin/sh (each turn's input is its script), the fakes at /opt/fake."""
    agent = make_agent("mount:fake read", *allow, extra=("--mount", world.fake_row(), *extra))
    agent.start("/bin/sh")
    return agent


def _out(agent, script: str) -> str:
    events = agent.events(script)
    assert events[-1]["type"] == "done", events
    return "".join(e["text"] for e in events if e["type"] == "delta")


def _as_agent_uid(world, *argv: str) -> None:
    done = subprocess.run(
        list(argv), capture_output=True, text=True, user=world.uid, group=world.gid,
        extra_groups=[], check=False, timeout=30,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_objects_cannot_be_made_or_changed_from_inside(world, make_agent) -> None:
    agent = _shell(world, make_agent, "tool:pwn execute", extra=("--tool", "pwn"))
    sibling = "b" + uuid.uuid4().hex[:10]  # owned (and run) by the agent's uid too
    world.ok("agent", "new", sibling, "--label", "user_u:agent_r:sib_t:s0", uid=world.uid)
    world.made.append(sibling)
    sibling_policy = world.ctx / "agent" / f"{sibling}.d" / "policy"
    before = sibling_policy.read_bytes()
    _as_agent_uid(world, "mkdir", "-p", str(world.ctx / f"home/{world.uid}/agent/{sibling}/data"))
    home = f"/ctx/home/{world.uid}"
    # The user (outside) keeps a tool-shaped file in a home directory and names it first
    # in .tshrc: the broker uses the launcher's CTX_PATH only, never the uid's .tshrc.
    host_home = world.ctx / "home" / str(world.uid)
    tshrc = (host_home / ".tshrc").read_text()
    header = f"#!{world.runtime.runner}\\n# cortexfs.object=tool\\n# cortexfs.name=pwn\\n"
    plant = (
        f"mkdir -p {host_home}/mine/pwn.d && printf '{header}' > {host_home}/mine/pwn && "
        f"printf 'kind=exec\\ncommand=[\"/usr/bin/id\"]\\n' > {host_home}/mine/pwn.d/driver && "
        f"printf 'allow {agent.type} tool:pwn execute\\n' > {host_home}/mine/pwn.d/policy && "
        f"echo 'CTX_PATH=/ctx/home/{world.uid}/mine:/ctx/tool' > {host_home}/.tshrc"
    )
    _as_agent_uid(world, "sh", "-c", plant)
    script = (
        "exec 2>/dev/null\n"
        f"mkdir {home}/tool/pwn.d || echo home-tool:refused\n"
        f"mkdir {home}/model/pwn || echo home-model:refused\n"
        f"mkdir {home}/agent/pwn.d || echo home-agent:refused\n"
        "mkdir /ctx/agent/pwn.d || echo agent:refused\n"
        f"echo 'allow sib_t network:default connect' > /ctx/agent/{sibling}.d/policy"
        " || echo sibling-policy:refused\n"
        f"echo x > {home}/agent/{sibling}/data/x || echo sibling-state:refused\n"
        f"echo CTX_PATH=/tmp > {home}/.tshrc || echo tshrc:refused\n"
        f"echo x > {home}/mine/x || echo home-file:refused\n"
        f"echo x > {home}/agent/{agent.name}/data/x && echo own-state:written\n"
        f"{world.runtime.runner} pwn\n"
        f"{world.runtime.runner} {home}/mine/pwn\n"
    )
    try:
        lines = _out(agent, script).splitlines()
    finally:  # only the uid may write its home (root is no owner there)
        restore = 'printf %s "$1" > "$2"'
        _as_agent_uid(world, "sh", "-c", restore, "sh", tshrc, str(host_home / ".tshrc"))
    assert lines[:9] == [
        "home-tool:refused", "home-model:refused", "home-agent:refused", "agent:refused",
        "sibling-policy:refused", "sibling-state:refused", "tshrc:refused",
        "home-file:refused", "own-state:written",
    ]  # fmt: skip
    assert [json.loads(line) for line in lines[9:]] == [
        {"errno": "ENOENT", "message": "pwn: not found on CTX_PATH", "type": "error"},
        {"exit_code": 69, "status": "error", "type": "done"},
        {"class": "tool", "name": "pwn", "object": f"{home}/mine/pwn", "type": "start"},
        {"errno": "EACCES", "message": f"{home}/mine/pwn: not on CTX_PATH", "type": "error"},
        {"exit_code": 13, "status": "error", "type": "done"},
    ]
    assert sibling_policy.read_bytes() == before
    assert not (host_home / "tool" / "pwn").exists()
    assert (host_home / "agent" / agent.name / "data" / "x").read_text() == "x\n"
    assert (host_home / ".tshrc").read_text() == tshrc


def test_shared_spaces_are_exactly_the_granted_ones(world, make_agent) -> None:
    tag = uuid.uuid4().hex[:8]
    read, write, other, later = (f"{k}{tag}" for k in ("r", "w", "o", "l"))
    for name in (read, write, other):
        _as_agent_uid(world, "mkdir", str(world.ctx / "shared" / name))
    grants = (f"shared:{read} read", f"shared:{write} write", f"shared:{later} write")
    agent = _shell(world, make_agent, *grants)
    probe = ["/ctx/shared", *(f"/ctx/shared/{n}" for n in (read, write, other, later))]
    script = "/opt/fake/fake-cli report " + " ".join(probe) + "\n"
    got = json.loads(_out(agent, script))
    assert got["visible"] == dict(zip(probe, [True, True, True, False, False], strict=True))
    assert got["writable"] == {
        "/ctx/shared": "EROFS", f"/ctx/shared/{read}": "EROFS", f"/ctx/shared/{write}": "ok",
    }  # fmt: skip
    assert sorted(got["listing"]["/ctx/shared"]) == sorted([read, write])
    _as_agent_uid(world, "mkdir", str(world.ctx / "shared" / later))
    again = json.loads(_out(agent, script))  # the next turn finds the space made since
    assert again["writable"][f"/ctx/shared/{later}"] == "ok"


def test_nothing_bound_exposes_the_mount_or_its_storage(world, make_agent) -> None:
    """A workspace holding /ctx and its storage, or a row whose source was retargeted at
    them after the table was written, is refused at start: nothing is left running."""
    agent = make_agent("mount:workspace write", "mount:data write")
    start = ("agent", "start", agent.name)
    holds = world.ctx_cmd(*start, "--workspace", str(world.base), "--", "true")
    assert holds.returncode == 2
    assert holds.stderr.decode() == (
        f"ctx: {world.base}: the workspace is, holds or lies in CortexFS storage or a CortexFS"
        " mount; choose another (--workspace DIR) or --no-workspace\n"
    )
    link = world.base / f"link-{agent.name}"
    link.symlink_to(world.fakes)
    write_control(str(agent.controls / "mount"), f"{link}\t/opt/data\trw\t-\n".encode())
    link.unlink()
    link.symlink_to(world.base)
    retargeted = world.ctx_cmd(*start, "--no-workspace", "--", "true")
    assert retargeted.returncode == 2
    assert retargeted.stderr.decode() == (
        f"ctx: /agent/{agent.name}.d/mount: {link} -> /opt/data: source is, holds or lies in"
        " CortexFS storage or a CortexFS mount; use /ctx\n"
    )
    assert world.ok("agent", "status", agent.name) == f"agent\t{agent.name}\nstate\tstopped\n"


def test_other_agents_are_visible_only_when_policy_reads_them(world, make_agent) -> None:
    peer, stranger = make_agent(), make_agent()
    agent = _shell(world, make_agent, f"agent:{peer.name} read")
    probe = ["/ctx/agent", f"/ctx/agent/{peer.name}.d", f"/ctx/agent/{stranger.name}.d"]
    got = json.loads(_out(agent, "/opt/fake/fake-cli report " + " ".join(probe) + "\n"))
    names = sorted(n for a in (agent, peer) for n in (a.name, f"{a.name}.d"))
    assert got["listing"]["/ctx/agent"] == names
    assert got["visible"][probe[2]] is False
    assert got["writable"] == {"/ctx/agent": "EROFS", probe[1]: "EROFS"}
    assert got["listing"][probe[1]] == sorted(os.listdir(peer.controls))
