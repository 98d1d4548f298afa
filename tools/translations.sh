#!/usr/bin/env bash
# The companion's interface catalogues: extract the marked messages of companion/ (code and
# templates, and each game's table.html in card_data/games/<game>/; see companion/babel.cfg) into messages.pot, merge them into each language's messages.po, compile the .mo
# files the app reads. Run from the repository root after marking or changing interface text;
# then translate what `pybabel update` left empty or fuzzy and run this again.
# A new language: .venv/bin/pybabel init -i companion/translations/messages.pot -d companion/translations -l <code>
set -euo pipefail
cd "$(dirname "$0")/.."
PYBABEL=${PYBABEL:-.venv/bin/pybabel}
$PYBABEL -q extract -F companion/babel.cfg -k lazy_gettext -k Words -k N_ --no-location --no-wrap --sort-output \
  --omit-header -o companion/translations/messages.pot .
$PYBABEL -q update -i companion/translations/messages.pot -d companion/translations \
  --no-wrap --ignore-obsolete --no-fuzzy-matching --ignore-pot-creation-date
$PYBABEL -q compile -d companion/translations --statistics
