// Connect Four as the page models it: a game is the list of columns played
// (0 to 6), the first by X; cell = row * 7 + column with row 0 at the top.
// The move-list notation is the columns 1 to 7 as digits, e.g. "4453".
// Pure: no DOM.

export const COLS = 7;
export const ROWS = 6;

/** The mark of the piece played at a ply: X moves first. */
export const markAt = (ply) => (ply % 2 === 0 ? 'X' : 'O');

/** Cells ('X', 'O' or '.'), column heights and the cell of each ply after a list of moves. */
export function grid(moves) {
  const cells = Array(COLS * ROWS).fill('.');
  const heights = Array(COLS).fill(0);
  const cellOfPly = [];
  moves.forEach((c, ply) => {
    const cell = (ROWS - 1 - heights[c]) * COLS + c;
    cells[cell] = markAt(ply);
    heights[c] += 1;
    cellOfPly.push(cell);
  });
  return { cells, heights, cellOfPly };
}

/** The cell a piece dropped in column `c` lands in, or null when the column is full. */
export const landingCell = (g, c) => (g.heights[c] < ROWS ? (ROWS - 1 - g.heights[c]) * COLS + c : null);

/** The four cells of a line of one colour through `cell`, or null. */
export function lineThrough(cells, cell) {
  const mark = cells[cell];
  if (mark === '.') return null;
  const r0 = Math.floor(cell / COLS), c0 = cell % COLS;
  for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
    const run = [cell];
    for (const s of [1, -1]) {
      for (let k = 1; k < 4; k++) {
        const r = r0 + s * k * dr, c = c0 + s * k * dc;
        if (r < 0 || r >= ROWS || c < 0 || c >= COLS || cells[r * COLS + c] !== mark) break;
        run.push(r * COLS + c);
      }
    }
    if (run.length >= 4) return run.sort((a, b) => a - b).slice(0, 4);
  }
  return null;
}

/** True when the game is over: four in a row, or a full board. */
export function isOver(moves) {
  if (moves.length === COLS * ROWS) return true;
  if (moves.length === 0) return false;
  const g = grid(moves);
  return lineThrough(g.cells, g.cellOfPly[moves.length - 1]) !== null;
}

/** True when column `c` may be played after `moves`. */
export function isLegal(moves, c) {
  return Number.isInteger(c) && c >= 0 && c < COLS && grid(moves).heights[c] < ROWS && !isOver(moves);
}

/** The columns that may be played after `moves`, in order. */
export function legalMoves(moves) {
  if (isOver(moves)) return [];
  const g = grid(moves);
  return [...Array(COLS).keys()].filter((c) => g.heights[c] < ROWS);
}

/** A list of moves in the digit notation. */
export const moveText = (moves) => moves.map((c) => c + 1).join('');

/** Parses a move list in the digit notation; whitespace and commas are ignored.
 *  {ok: true, moves} or {ok: false, message}. */
export function parseMoveList(text) {
  const digits = String(text).replace(/[\s,]/g, '');
  const bad = digits.search(/[^1-7]/);
  if (bad >= 0) return { ok: false, message: 'Only the digits 1 to 7 may appear; “' + digits[bad] + '” is not a column.' };
  const moves = [];
  const heights = Array(COLS).fill(0);
  const cells = Array(COLS * ROWS).fill('.');
  for (let i = 0; i < digits.length; i++) {
    const c = Number(digits[i]) - 1;
    if (heights[c] >= ROWS) return { ok: false, message: 'Move ' + (i + 1) + ' plays column ' + (c + 1) + ', which is already full.' };
    const cell = (ROWS - 1 - heights[c]) * COLS + c;
    cells[cell] = markAt(i);
    heights[c] += 1;
    moves.push(c);
    if (lineThrough(cells, cell) && i + 1 < digits.length) {
      return { ok: false, message: 'The game ended with four in a row at move ' + (i + 1) + '; the list goes on after it.' };
    }
  }
  return { ok: true, moves };
}

/** Where an analysed line can be drawn on the board of `moves`: cell -> {n, mark, played}, or null.
 *  `base` is the position analysed and `pv` its line of best play; the line is drawn while the game
 *  follows it, the plies already played marked as such. */
export function pvOverlay(base, pv, moves) {
  if (!Array.isArray(pv) || pv.length === 0) return null;
  if (moves.length < base.length || moves.length > base.length + pv.length) return null;
  for (let i = 0; i < moves.length; i++) {
    if (moves[i] !== (i < base.length ? base[i] : pv[i - base.length])) return null;
  }
  const g = grid(moves);
  const out = new Map();
  for (let j = 0; j < moves.length - base.length; j++) {
    out.set(g.cellOfPly[base.length + j], { n: j + 1, mark: markAt(base.length + j), played: true });
  }
  const heights = g.heights.slice();
  for (let j = moves.length - base.length; j < pv.length; j++) {
    const c = pv[j];
    if (!(c >= 0 && c < COLS) || heights[c] >= ROWS) break;
    out.set((ROWS - 1 - heights[c]) * COLS + c, { n: j + 1, mark: markAt(base.length + j), played: false });
    heights[c] += 1;
  }
  return out;
}
