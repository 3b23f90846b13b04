"""telegram: chats linked to accounts and games, one-time chat links, pushes delivered

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _stamp(name: str, nullable: bool = False) -> sa.Column[datetime]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "telegram_chats",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("chat_id", sa.BigInteger, nullable=False, unique=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=True),
        sa.Column("current_game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="SET NULL"), nullable=True),
        sa.Column("lang", sa.String(8), nullable=True),
        sa.Column("seen_lang", sa.String(8), nullable=True),
        sa.Column("title", sa.String(200), nullable=False, server_default=""),
        _stamp("linked_at"),
        sa.Column("linked_by", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
    )
    op.create_index("ix_telegram_chats_account_id", "telegram_chats", ["account_id"])
    op.create_index("ix_telegram_chats_game_id", "telegram_chats", ["game_id"])
    op.create_table(
        "telegram_links",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=True),
        _stamp("created_at"), _stamp("expires_at"), _stamp("spent_at", True),
    )
    op.create_table(
        "telegram_deliveries",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("chat_id", sa.BigInteger, nullable=False),
        _stamp("sent_at"),
        sa.UniqueConstraint("key", "chat_id", name="uq_telegram_deliveries_key_chat"),
    )


def downgrade() -> None:
    for table in ("telegram_deliveries", "telegram_links", "telegram_chats"):
        op.drop_table(table)
