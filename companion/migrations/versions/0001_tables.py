"""The tables and their event logs, as the companion created them before it used migrations.

A database created then already has both tables (and no ``alembic_version``): they are kept
as they are.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if "game_tables" not in existing:
        op.create_table(
            "game_tables",
            sa.Column("id", sa.Integer, primary_key=True),
            sa.Column("token", sa.String(32), nullable=False, unique=True),
            sa.Column("code", sa.String(8), nullable=False, unique=True),
            sa.Column("game", sa.String(32), nullable=False),
            sa.Column("players", sa.JSON, nullable=False),
            sa.Column("options", sa.JSON, nullable=False),
            sa.Column("version", sa.Integer, nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        )
    if "table_events" not in existing:
        op.create_table(
            "table_events",
            sa.Column("id", sa.Integer, primary_key=True),
            sa.Column("table_id", sa.Integer, sa.ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=False,
                      index=True),
            sa.Column("seq", sa.Integer, nullable=False),
            sa.Column("payload", sa.JSON, nullable=False),
            sa.Column("status", sa.String(12), nullable=False),
            sa.Column("corrects", sa.Integer, nullable=True),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.UniqueConstraint("table_id", "seq", name="uq_event_seq"),
        )


def downgrade() -> None:
    op.drop_table("table_events")
    op.drop_table("game_tables")
