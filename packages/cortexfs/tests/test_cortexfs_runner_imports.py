"""The object runner's warm path is part of every projected call's latency: it may load
only its own modules and `_socket` beyond what the interpreter loads to start."""

from __future__ import annotations

import subprocess
import sys

from cortexfs.warm.paths import fnv1a32, install_key

PROBE = (
    "import sys; before = set(sys.modules); "
    "import cortexfs.runner_cli, cortexfs.warm.handoff; "
    "print(' '.join(sorted(set(sys.modules) - before)))"
)


def test_the_warm_path_imports_only_its_own_modules_and_socket() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert done.stdout.split() == [
        "_socket", "cortexfs", "cortexfs.runner_cli", "cortexfs.warm",
        "cortexfs.warm.handoff", "cortexfs.warm.paths", "cortexfs.warm.wire",
    ]  # fmt: skip


def test_install_key_is_fnv1a_of_the_installation() -> None:
    assert fnv1a32(b"") == 0x811C9DC5  # the published FNV-1a 32-bit test vectors
    assert fnv1a32(b"a") == 0xE40C292C
    assert fnv1a32(b"foobar") == 0xBF9CF968
    key = install_key()
    assert len(key) == 8 and int(key, 16) >= 0
    assert install_key() == key
