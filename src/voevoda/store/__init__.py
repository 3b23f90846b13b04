"""Persistence: SQLAlchemy 2 with Alembic migrations; SQLite by default, PostgreSQL by URL.

``Store`` (and SQLAlchemy with it) is imported on first use, so that a command that only reads
a SQLite game (:mod:`voevoda.store.quick`) never pays for it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from voevoda.store.db import DEFAULT_URL, Store, resolve_url


def __getattr__(name: str) -> Any:
    if name in ("DEFAULT_URL", "Store", "resolve_url"):
        from voevoda.store import db

        return getattr(db, name)
    raise AttributeError(f"module 'voevoda.store' has no attribute '{name}'")


__all__ = ["DEFAULT_URL", "Store", "resolve_url"]
