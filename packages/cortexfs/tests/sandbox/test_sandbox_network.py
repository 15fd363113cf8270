"""Network presence follows policy: loopback only, or pasta's user-mode network."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator

import pytest

PASTA = (
    "/usr/bin/pasta", "--runas", "0", "--netns-only", "-f", "-q", "--config-net",
    "--no-map-gw", "--no-icmp", "-t", "none", "-u", "none", "-T", "53", "-U", "53", "--",
)  # fmt: skip
GREETING = "hello from the host"
BIND_WAIT = 120.0


def _bind_waiting(server: socket.socket, address: tuple[str, int]) -> None:
    deadline = time.monotonic() + BIND_WAIT
    while True:
        try:
            server.bind(address)
            return
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
            if time.monotonic() >= deadline:
                server.close()
                pytest.fail(
                    f"{address[0]}:{address[1]} stayed in use for {BIND_WAIT:.0f} s "
                    "(another run's test_sandbox_network, or a DNS server on the host)"
                )
            time.sleep(0.2)


@pytest.fixture
def host_dns_port() -> Iterator[list[str]]:
    """A TCP listener on the host's 127.0.0.1:53, which pasta forwards (-T 53).

    Port 53 is the point: pasta's argv is fixed by the product (launch/network.py), and
    the test checks that the sandbox reaches the host's DNS port through it and nothing
    else. Another run of this test holds the port for a few seconds, so a port in use
    is waited for (BIND_WAIT seconds), then a failure naming the port."""
    if shutil.which("pasta") is None:
        if os.environ.get("CORTEXFS_REQUIRE_SANDBOX") == "1":
            pytest.fail("CORTEXFS_REQUIRE_SANDBOX=1 but pasta is not installed")
        pytest.skip("pasta is not installed (apt-get install passt)")
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    _bind_waiting(server, ("127.0.0.1", 53))
    server.listen()
    peers: list[str] = []

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, addr = server.accept()
                peers.append(addr[0])
                conn.sendall(GREETING.encode())
                conn.close()

    threading.Thread(target=serve, daemon=True).start()
    yield peers
    server.close()


def test_network_only_when_policy_grants_it(world, make_agent, host_dns_port) -> None:
    shown = ("mount:fake read",)
    isolated = make_agent(*shown, extra=("--mount", world.fake_row()))
    granted = make_agent(*shown, "network:default connect", extra=("--mount", world.fake_row()))
    for agent in (isolated, granted):
        agent.start("/opt/fake/fake-cli", "report", options=("--no-workspace",))

    alone = isolated.report()
    assert alone["interfaces"] == ["lo"]
    assert alone["dns_port"] == "ECONNREFUSED"
    assert host_dns_port == []

    online = granted.report()
    assert "lo" in online["interfaces"] and len(online["interfaces"]) == 2
    assert online["dns_port"] == GREETING
    assert host_dns_port == ["127.0.0.1"]
    status = granted.status()
    assert status["network"] == "pasta"
    argv = status["argv"]
    assert tuple(argv[: len(PASTA)]) == PASTA
    assert argv[len(PASTA)] == "/usr/bin/prlimit"
    assert "--unshare-net" not in argv
    assert "--unshare-net" in isolated.status()["argv"]
