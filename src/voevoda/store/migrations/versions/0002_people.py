"""people: accounts, sessions, login links, seats, invitations, API tokens, game settings

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _stamp(name: str, nullable: bool = False) -> sa.Column[datetime]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("name_key", sa.String(100), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("can_create_games", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("lang", sa.String(8), nullable=True),
        _stamp("created_at"),
    )
    op.create_table(
        "web_sessions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("csrf_token", sa.String(64), nullable=False),
        _stamp("created_at"), _stamp("last_seen_at"), _stamp("expires_at"), _stamp("revoked_at", True),
        sa.Column("user_agent", sa.String(300), nullable=False, server_default=""),
        sa.Column("address", sa.String(64), nullable=False, server_default=""),
    )
    op.create_index("ix_web_sessions_account_id", "web_sessions", ["account_id"])
    op.create_table(
        "login_links",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        _stamp("created_at"), _stamp("expires_at"), _stamp("spent_at", True),
    )
    op.create_table(
        "game_members",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("player", sa.String(200), nullable=True),
        _stamp("created_at"),
        sa.UniqueConstraint("game_id", "player", name="uq_members_game_seat"),
        sa.UniqueConstraint("game_id", "account_id", "role", name="uq_members_game_account_role"),
    )
    op.create_index("ix_game_members_game_id", "game_members", ["game_id"])
    op.create_index("ix_game_members_account_id", "game_members", ["account_id"])
    op.create_table(
        "invitations",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("player", sa.String(200), nullable=False),
        _stamp("created_at"), _stamp("spent_at", True),
        sa.Column("spent_by", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
        _stamp("revoked_at", True),
    )
    op.create_index("ix_invitations_game_id", "invitations", ["game_id"])
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
        sa.Column("label", sa.String(100), nullable=False, server_default=""),
        _stamp("created_at"), _stamp("revoked_at", True),
    )
    op.create_index("ix_api_tokens_game_id", "api_tokens", ["game_id"])
    op.create_table(
        "game_settings",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("is_public", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("timezone", sa.String(64), nullable=False, server_default="UTC"),
    )
    op.create_table(
        "site_settings",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for table in ("site_settings", "game_settings", "api_tokens", "invitations", "game_members", "login_links",
                  "web_sessions", "accounts"):
        op.drop_table(table)
