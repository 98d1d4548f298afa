"""Player colours and rematches on tables; the version each log row was written and undone at.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("colours", sa.JSON, nullable=True))
        batch.add_column(sa.Column("rematch_token", sa.String(32), nullable=True))
    with op.batch_alter_table("table_events") as batch:
        batch.add_column(sa.Column("at_version", sa.Integer, nullable=True))
        batch.add_column(sa.Column("undone_at_version", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("table_events") as batch:
        batch.drop_column("undone_at_version")
        batch.drop_column("at_version")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("rematch_token")
        batch.drop_column("colours")
