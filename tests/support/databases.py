"""Database fixtures: every store, service and web test that takes `store_url` runs on SQLite and on a
real PostgreSQL server.

PostgreSQL comes from VOEVODA_TEST_POSTGRES_URL (for example
postgresql://postgres@127.0.0.1:5432/postgres); a fresh database is created for the session
and dropped afterwards. Without it the PostgreSQL cases are skipped with a message, except when
VOEVODA_REQUIRE_POSTGRES=1 (as in CI), where a missing server is an error.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

HOW = ("PostgreSQL tests need a server: set VOEVODA_TEST_POSTGRES_URL="
       "postgresql://postgres@127.0.0.1:5432/postgres (trust auth) and run again, or run `bash .ci/run`.")


@pytest.fixture(scope="session")
def postgres_admin_url() -> str | None:
    url = os.environ.get("VOEVODA_TEST_POSTGRES_URL")
    required = os.environ.get("VOEVODA_REQUIRE_POSTGRES") == "1"
    if not url:
        if required:
            pytest.fail("VOEVODA_REQUIRE_POSTGRES=1 but VOEVODA_TEST_POSTGRES_URL is not set")
        return None
    return url


@pytest.fixture(scope="session")
def postgres_url(postgres_admin_url: str | None) -> Iterator[str | None]:
    if postgres_admin_url is None:
        yield None
        return
    import psycopg

    plain = postgres_admin_url.replace("postgresql+psycopg://", "postgresql://")
    name = f"voevoda_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base, _, _ = plain.rpartition("/")
    yield f"{base}/{name}"
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path, postgres_url: str | None) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
        return
    if postgres_url is None:
        pytest.skip(HOW)
    import psycopg

    yield postgres_url
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        # every table of every migration, whatever later migrations add
        conn.execute("DROP SCHEMA public CASCADE")
        conn.execute("CREATE SCHEMA public")
