"""The scorekeeper's HTML pages: a table's pages and its live part (:mod:`.table_pages`, with the
parts every phone sees alike, :mod:`.shared_parts`), each game's own page (:mod:`.game_pages`),
past games and statistics (:mod:`.past_games`), charts (:mod:`.charts`) and a result's exports
(:mod:`.exports`)."""
