"""PostgreSQL tells every companion process which table rows changed (LISTEN/NOTIFY), so that a
poll needs no look-up query (see :mod:`companion.scorekeeping.store.table_feed`).

After a write to ``game_tables`` commits, the channel ``companion_tables`` carries ``"<id>
<version>"`` where only the version moved on, and ``"<id> -"`` where anything else about the
row changed (a rematch recorded, the row deleted); a TRUNCATE says ``"*"``. SQLite, which one
process serves, has no feed and needs none.

Revision ID: 0003
Revises: 0002
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

CHANNEL = "companion_tables"


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(f"""
        CREATE OR REPLACE FUNCTION companion_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'UPDATE' AND NEW.version > OLD.version
                    AND to_jsonb(NEW) - 'version' = to_jsonb(OLD) - 'version' THEN
                PERFORM pg_notify('{CHANNEL}', NEW.id || ' ' || NEW.version);
            ELSE
                PERFORM pg_notify('{CHANNEL}', OLD.id || ' -');
            END IF;
            RETURN NULL;
        END $$""")
    op.execute(f"""
        CREATE OR REPLACE FUNCTION companion_tables_emptied() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('{CHANNEL}', '*');
            RETURN NULL;
        END $$""")
    op.execute("CREATE TRIGGER game_tables_changed AFTER UPDATE OR DELETE ON game_tables "
               "FOR EACH ROW EXECUTE FUNCTION companion_table_changed()")
    op.execute("CREATE TRIGGER game_tables_emptied AFTER TRUNCATE ON game_tables "
               "FOR EACH STATEMENT EXECUTE FUNCTION companion_tables_emptied()")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS game_tables_emptied ON game_tables")
    op.execute("DROP TRIGGER IF EXISTS game_tables_changed ON game_tables")
    op.execute("DROP FUNCTION IF EXISTS companion_tables_emptied()")
    op.execute("DROP FUNCTION IF EXISTS companion_table_changed()")
