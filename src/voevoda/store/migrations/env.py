"""Alembic environment: the connection comes from voevoda.store (config attribute)."""

from __future__ import annotations

from alembic import context

from voevoda.store.models import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("voevoda migrations run through voevoda.store.Store")

context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
