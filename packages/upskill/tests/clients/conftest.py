from __future__ import annotations

from collections.abc import Iterator

import pytest
from model_endpoint import Endpoint, model_endpoint
from real_clients import ClientInstallError, Clients, ensure_clients


@pytest.fixture(scope="session")
def clients() -> Clients:
    try:
        return ensure_clients()
    except ClientInstallError as exc:
        pytest.fail(f"the real clients could not be installed: {exc}", pytrace=False)


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    """A fresh local model endpoint per test: its first request is this test's turn."""
    with model_endpoint() as served:
        yield served
