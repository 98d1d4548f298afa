#!/usr/bin/env bash
# Refresh constraints.txt, the exact versions the README's two commands install: a fresh venv
# takes the newest release of every dependency (main, test and bench) that pyproject.toml allows, and
# its `pip freeze` becomes the lock. Then run the tests with the new lock (README, set-up) and
# commit constraints.txt only if they pass.
set -euo pipefail
cd "$(dirname "$0")/.."
fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT
python3 -m venv "$fresh/venv"
"$fresh/venv/bin/pip" install -q '.[test,bench]'
{
  echo "# The versions printkit was tested with: the README's commands install exactly these"
  echo "# (pip install -c constraints.txt ...). Refresh with tools/lock.sh, then run the tests."
  "$fresh/venv/bin/pip" freeze --exclude printkit | LC_ALL=C sort -f
} > constraints.txt
echo "constraints.txt: $(grep -vc '^#' constraints.txt) packages; now run the tests (README, set-up)."
