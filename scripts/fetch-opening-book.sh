#!/usr/bin/env bash
# Fetches the Connect Four opening book that OPENING_BOOK points the service
# at: the "12-ply with distances" database of the MIT-licensed PyPI package
# bitbully-databases (Markus Thill), about 21 MB. Writes
#   target/opening-book/book_12ply_distances.dat
# (or $1/book_12ply_distances.dat) and prints the path. Needs python3 with pip.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEST=${1:-$ROOT/target/opening-book}
VERSION=${BITBULLY_DATABASES_VERSION:-0.0.2}
BOOK=book_12ply_distances.dat
mkdir -p "$DEST"
if [ -s "$DEST/$BOOK" ]; then
  echo "$DEST/$BOOK"
  exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
python3 -m pip download --quiet --no-deps --disable-pip-version-check \
  --dest "$TMP" "bitbully-databases==$VERSION" >&2
WHEEL=$(ls "$TMP"/bitbully_databases-*.whl)
python3 - "$WHEEL" "$DEST" "$BOOK" <<'PY'
import sys, zipfile, shutil, os
wheel, dest, book = sys.argv[1:]
with zipfile.ZipFile(wheel) as z:
    with z.open(f"bitbully_databases/assets/{book}") as src, open(os.path.join(dest, book + ".part"), "wb") as out:
        shutil.copyfileobj(src, out)
    with z.open([n for n in z.namelist() if n.endswith("licenses/LICENSE")][0]) as src, \
         open(os.path.join(dest, "LICENSE.bitbully-databases"), "wb") as out:
        shutil.copyfileobj(src, out)
os.replace(os.path.join(dest, book + ".part"), os.path.join(dest, book))
PY
echo "$DEST/$BOOK"
