"""notification destinations and deliveries (one row per announcement × destination)

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("outbox", sa.Column("fanned_out_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_outbox_fanned_out_at", "outbox", ["fanned_out_at"])
    op.create_table(
        "notify_destinations",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("scope", sa.String(16), nullable=False),
        sa.Column("player", sa.String(200), nullable=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("target", sa.Text, nullable=False),
        sa.Column("chat_id", sa.String(64), nullable=True),
        sa.Column("secret", sa.String(200), nullable=True),
        sa.Column("mode", sa.String(16), nullable=False, server_default="each"),
        sa.Column("digest_hour", sa.Integer, nullable=False, server_default="7"),
        sa.Column("lang", sa.String(8), nullable=False, server_default="ru"),
        sa.Column("label", sa.String(100), nullable=False, server_default=""),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_notify_destinations_game_id", "notify_destinations", ["game_id"])
    op.create_table(
        "notify_deliveries",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(250), nullable=False, unique=True),
        sa.Column("outbox_id", sa.Integer, sa.ForeignKey("outbox.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=True),
        sa.Column("destination_id", sa.Integer, sa.ForeignKey("notify_destinations.id", ondelete="CASCADE"),
                  nullable=True),
        sa.Column("chat_id", sa.BigInteger, nullable=True),
        sa.Column("status", sa.String(16), nullable=False, server_default="pending"),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("parts_sent", sa.Integer, nullable=False, server_default="0"),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("first_failed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text, nullable=False, server_default=""),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("reported_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    for column in ("outbox_id", "game_id", "destination_id", "next_attempt_at"):
        op.create_index(f"ix_notify_deliveries_{column}", "notify_deliveries", [column])


def downgrade() -> None:
    op.drop_table("notify_deliveries")
    op.drop_index("ix_notify_destinations_game_id", "notify_destinations")
    op.drop_table("notify_destinations")
    op.drop_index("ix_outbox_fanned_out_at", "outbox")
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("fanned_out_at")
