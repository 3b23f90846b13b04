from __future__ import annotations

import os
from pathlib import Path

# `make test` runs the suite in several processes (pytest-xdist): each keeps its own cache of the
# batched simulator's compiled code, since Numba's cache is not safe for two processes compiling
# the same function at once. Set before anything imports Numba.
if os.environ.get("PYTEST_XDIST_WORKER") and "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_CACHE_DIR"] = str(Path(__file__).resolve().parents[1] / ".numba-cache"
                                        / os.environ["PYTEST_XDIST_WORKER"])

import pytest  # noqa: E402

from tests.core.toy import Guess, Twenty  # noqa: E402
from voevoda.core import registry  # noqa: E402

# Registered at import, before collection, so that parametrised tests see the toy games.
registry.register(Twenty)
registry.register(Guess)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """In CI (VOEVODA_NO_SKIPS=1) a skipped test fails the run: nothing may be skipped silently."""
    if os.environ.get("VOEVODA_NO_SKIPS") != "1":
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter else 0
    if skipped:
        if reporter:
            reporter.write_line(f"VOEVODA_NO_SKIPS=1: {skipped} skipped test(s) fail the run", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED

# The databases every store, service and web test runs on: SQLite always, PostgreSQL from
# VOEVODA_TEST_POSTGRES_URL (required in CI).
from tests.support.databases import postgres_admin_url, postgres_url, store_url  # noqa: E402,F401
