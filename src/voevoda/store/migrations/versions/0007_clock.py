"""clock: schedules, ready marks, vacations, missed turns (issue 26, «Deadlines and the worker»)

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def _moment(name: str, nullable: bool = True) -> sa.Column[Any]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _game() -> sa.ForeignKey:
    return sa.ForeignKey("games.id", ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "clock_schedules",
        sa.Column("game_id", sa.Integer, _game(), primary_key=True),
        sa.Column("weekly", sa.String(32), nullable=True),
        sa.Column("period", sa.String(32), nullable=True),
        sa.Column("phases", sa.JSON, nullable=False),
        _moment("deadline_at"),
        sa.Column("deadline_step", sa.Integer, nullable=True),
        sa.Column("early", sa.Boolean, nullable=False),
        sa.Column("ready_required", sa.Boolean, nullable=False),
        sa.Column("reminders", sa.JSON, nullable=False),
        sa.Column("missed_policy", sa.String(32), nullable=False),
        sa.Column("disorder_after", sa.Integer, nullable=False),
        sa.Column("vacation_days", sa.Integer, nullable=False),
        sa.Column("vacation_policy", sa.String(16), nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        _moment("opened_at", nullable=False),
        _moment("due_at"),
        sa.Column("extended_seconds", sa.Integer, nullable=False),
        sa.Column("excused", sa.JSON, nullable=False),
        _moment("paused_at"),
        sa.Column("pause_reason", sa.Text, nullable=False),
        sa.Column("remaining_seconds", sa.Integer, nullable=True),
        sa.Column("seen_entries", sa.Integer, nullable=False),
        _moment("wake_at"),
        _moment("claimed_until"),
        sa.Column("claimed_by", sa.String(64), nullable=False),
        sa.Column("last_error", sa.Text, nullable=False),
        _moment("updated_at", nullable=False),
    )
    op.create_index("ix_clock_schedules_wake_at", "clock_schedules", ["wake_at"])
    op.create_table(
        "clock_ready",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, _game(), nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("player", sa.String(200), nullable=False),
        _moment("at", nullable=False),
        sa.UniqueConstraint("game_id", "step", "player", name="uq_clock_ready_game_step_player"),
    )
    op.create_index("ix_clock_ready_game_id", "clock_ready", ["game_id"])
    op.create_table(
        "clock_vacations",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, _game(), nullable=False),
        sa.Column("player", sa.String(200), nullable=False),
        _moment("starts_at", nullable=False),
        _moment("ends_at", nullable=False),
        _moment("created_at", nullable=False),
    )
    op.create_index("ix_clock_vacations_game_id", "clock_vacations", ["game_id"])
    op.create_table(
        "clock_missed",
        sa.Column("game_id", sa.Integer, _game(), primary_key=True),
        sa.Column("player", sa.String(200), primary_key=True),
        sa.Column("missed", sa.Integer, nullable=False),
        sa.Column("disorder", sa.Boolean, nullable=False),
        sa.Column("computer", sa.Boolean, nullable=False),
        sa.Column("counted_step", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("clock_missed")
    op.drop_index("ix_clock_vacations_game_id", "clock_vacations")
    op.drop_table("clock_vacations")
    op.drop_index("ix_clock_ready_game_id", "clock_ready")
    op.drop_table("clock_ready")
    op.drop_index("ix_clock_schedules_wake_at", "clock_schedules")
    op.drop_table("clock_schedules")
