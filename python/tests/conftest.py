"""Shared set-up: the package from this checkout, a private host ledger, and settings that let tiny
tasks start on a busy machine."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_ROOT = os.path.dirname(HERE)
REPO = os.path.dirname(PACKAGE_ROOT)
if PACKAGE_ROOT not in sys.path:
    sys.path.insert(0, PACKAGE_ROOT)

#: Berth config for tests: the machine is shared, so other processes' load must not hold tasks back.
EASY = {"utilization-limit.cpu": 1.0, "remain-limit.memory": "1MiB", "utilization-limit.memory": 1.0,
        "scheduler.interval": "200ms"}


@pytest.fixture(autouse=True)
def private_host(tmp_path, monkeypatch):
    """Each test's runs share a host ledger of their own, and find this checkout's berth."""
    monkeypatch.setenv("BERTH_HOST_DIR", str(tmp_path / "host"))
    if not os.environ.get("BERTH"):
        monkeypatch.setenv("BERTH", os.path.join(REPO, "berth"))
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    yield
