"""Alembic's entry point for the companion's schema: run by :meth:`companion.scorekeeping.store.storage.TableStore.migrate`
on the connection it passes (``config.attributes["connection"]``), inside its transaction."""

from alembic import context

from companion.scorekeeping.store.storage import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
context.run_migrations()
