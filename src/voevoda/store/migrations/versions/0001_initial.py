"""games and their journals

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("header", sa.JSON, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("state_hash", sa.String(64), nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("entry_count", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "entries",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("entry", sa.JSON, nullable=False),
        sa.UniqueConstraint("game_id", "seq", name="uq_entries_game_seq"),
    )
    op.create_index("ix_entries_game_id", "entries", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_entries_game_id", table_name="entries")
    op.drop_table("entries")
    op.drop_table("games")
