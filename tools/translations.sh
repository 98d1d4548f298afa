#!/usr/bin/env bash
# The companion's interface catalogues, every one of them: the shared catalogue
# companion/translations/ (the messages of companion/ and of the shared card_data modules, see
# companion/babel.cfg) and each bundled game's own, card_data/games/<game>/translations/ (the
# messages marked in that game's folder only: its rule engine's words, its table.html; see
# companion/babel-game.cfg; the games are the registry's, none listed here). For each: extract
# the marked messages into messages.pot, merge them into each language's messages.po, compile
# the .mo files the app reads (tools/translations.py says how a message shared by two games, or
# by a game and the companion, stays in the shared catalogue, its translation kept).
# Run from anywhere after marking or changing interface text; then translate what the update
# left empty and run this again.
# tools/translations.sh --check writes nothing and fails naming each file that is not up to date.
# A new language: .venv/bin/pybabel init -i companion/translations/messages.pot -d companion/translations -l <code>
# (the games' catalogues of that language are created by the next run).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-.venv/bin/python}
exec "$PYTHON" tools/translations.py "$@"
