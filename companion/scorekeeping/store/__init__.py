"""Where the tables live: their event logs in the database (:mod:`.storage`) and, on PostgreSQL,
what each process knows of their rows between reads (:mod:`.table_feed`)."""
