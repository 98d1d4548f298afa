"""The scorekeeper: tables as event logs folded through the games' rule engines, stored in a
database, their pages, JSON API, charts, exports and past games."""
