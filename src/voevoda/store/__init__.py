"""Persistence: SQLAlchemy 2 with Alembic migrations; SQLite by default, PostgreSQL by URL."""

from voevoda.store.db import DEFAULT_URL, Store, resolve_url

__all__ = ["DEFAULT_URL", "Store", "resolve_url"]
