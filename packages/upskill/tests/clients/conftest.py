from __future__ import annotations

from collections.abc import Iterator

import pytest
from model_endpoint import Endpoint, model_endpoint
from real_clients import ClientInstallError, Clients, ensure_clients, reap_strays


@pytest.fixture(scope="session")
def clients(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Clients]:
    try:
        installed = ensure_clients()
    except ClientInstallError as exc:
        pytest.fail(f"the real clients could not be installed: {exc}", pytrace=False)
    yield installed
    # Every test HOME lives below the session's base temp: what runs there now is a
    # client's leftover daemon, which would outlive pytest.
    reap_strays(tmp_path_factory.getbasetemp())


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    """A fresh local model endpoint per test: its first request is this test's turn."""
    with model_endpoint() as served:
        yield served
