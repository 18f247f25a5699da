#!/usr/bin/env bash
# Writes data/connect4/book-12ply.zst, the compact form of the Connect Four
# opening book that the binary carries (src/games/connect4/book.rs reads it),
# from the book that scripts/fetch-opening-book.sh fetches: the "12-ply with
# distances" database of the MIT-licensed PyPI package bitbully-databases
# (Markus Thill; its license is data/connect4/LICENSE.bitbully-databases).
#
# The same positions and scores, in a form that compresses about 9x:
# - each position under the smaller of its own code and its mirror image's
#   (the book lists a position once for both, under either), sorted;
# - the codes as the differences between neighbours (4 bytes each, big
#   endian, the first from i32::MIN), then the scores (a byte each);
# - the whole compressed with zstd at its highest level.
# `cargo test` checks that the compact book answers every position of the
# fetched one the same (tests/connect4.rs).
#
# Usage: scripts/compact-opening-book.sh   Needs: python3 with pip, zstd.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BOOK=$(bash "$ROOT/scripts/fetch-opening-book.sh")
OUT=$ROOT/data/connect4
mkdir -p "$OUT"
python3 - "$BOOK" "$OUT/book-12ply.raw" <<'PY'
import struct, sys

book, out = sys.argv[1:]
data = open(book, "rb").read()

def columns(code):
    """The columns of a code, each a list of stones from the bottom."""
    bits, at, cols, col = code & 0xFFFFFFFF, 31, [], []
    while len(cols) < 7:
        if (bits >> at) & 1 == 0:
            cols.append(col)
            col = []
            at -= 1
        else:
            col.append((bits >> (at - 1)) & 1)
            at -= 2
    return cols

def code(cols):
    bits, length = 0, 0
    for col in cols:
        for stone in col:
            bits, length = bits << 2 | (0b10 | stone), length + 2
        bits, length = bits << 1, length + 1
    bits, length = bits << 1, length + 1
    return struct.unpack(">i", struct.pack(">I", bits << (32 - length)))[0]

records = []
for at in range(0, len(data), 5):
    c, score = struct.unpack_from(">ib", data, at)
    records.append((min(c, code(columns(c)[::-1])), score))
records.sort()
assert all(a[0] < b[0] for a, b in zip(records, records[1:])), "a position listed twice"
with open(out, "wb") as f:
    previous = -(2**31)
    for c, _ in records:
        f.write(struct.pack(">I", (c - previous) & 0xFFFFFFFF))
        previous = c
    f.write(bytes(score & 0xFF for _, score in records))
print(f"{len(records)} positions", file=sys.stderr)
PY
zstd -q --ultra -22 --no-check -f "$OUT/book-12ply.raw" -o "$OUT/book-12ply.zst"
rm "$OUT/book-12ply.raw"
cp "$(dirname "$BOOK")/LICENSE.bitbully-databases" "$OUT/LICENSE.bitbully-databases"
ls -l "$OUT/book-12ply.zst" >&2
# The committed book is pinned by its sha256 (a test and
# scripts/container-check.sh check it): a new book needs a new pin.
if ! (cd "$OUT" && sha256sum --check --strict --status book-12ply.zst.sha256); then
  echo "the book differs from its pin: if that is meant, commit the new one with" \
    "(cd data/connect4 && sha256sum book-12ply.zst > book-12ply.zst.sha256)" >&2
fi
