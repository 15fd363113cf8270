from __future__ import annotations

import pytest
from real_clients import ClientInstallError, Clients, ensure_clients


@pytest.fixture(scope="session")
def clients() -> Clients:
    try:
        return ensure_clients()
    except ClientInstallError as exc:
        pytest.fail(f"the real clients could not be installed: {exc}", pytrace=False)
