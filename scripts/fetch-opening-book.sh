#!/usr/bin/env bash
# Fetches the Connect Four opening book that OPENING_BOOK points the service
# at: the "12-ply with distances" database of the MIT-licensed PyPI package
# bitbully-databases (Markus Thill), about 21 MB. Writes
#   target/opening-book/book_12ply_distances.dat
# (or $1/book_12ply_distances.dat) and prints the path. Needs python3 with pip
# and sha256sum. The wheel and the book are pinned by their sha256: anything
# else fails, and a fetched book that does not match is not put in place.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEST=${1:-$ROOT/target/opening-book}
VERSION=0.0.2
BOOK=book_12ply_distances.dat
# Pinned: the wheel pip may install (checked by pip, --require-hashes) and
# the book taken from it (checked here, also when it is already on disk).
WHEEL_SHA256=42d4431d964dc37d58a8e776729b247ac3e2096c575f27b185ac013a45e26d74
BOOK_SHA256=1e01874dbb9b296a96baa2f5483ae69333ac7009377b34b222f112d9d8e89704
check_book() {
  echo "$BOOK_SHA256  $1" | sha256sum --check --quiet >&2 \
    || { echo "fetch-opening-book: $1 is not the pinned book (sha256 $BOOK_SHA256)" >&2; exit 1; }
}
mkdir -p "$DEST"
if [ -s "$DEST/$BOOK" ]; then
  check_book "$DEST/$BOOK"
  echo "$DEST/$BOOK"
  exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "bitbully-databases==$VERSION --hash=sha256:$WHEEL_SHA256" > "$TMP/requirements.txt"
python3 -m pip download --quiet --no-deps --disable-pip-version-check --only-binary=:all: \
  --require-hashes --dest "$TMP" -r "$TMP/requirements.txt" >&2
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
PY
check_book "$DEST/$BOOK.part"
mv "$DEST/$BOOK.part" "$DEST/$BOOK"
echo "$DEST/$BOOK"
