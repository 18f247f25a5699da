// Gomoku as the page models it: a game is the list of moves played, black
// (X) first, each a square name: a column letter (a = the left column) and
// a row number (1 = the bottom row), h8 the centre of the 15x15 board, as
// Gomoku front ends and Renju notation write them. Boards of 5 to 20 lines
// (columns a to t); "freestyle" (five or more in a row wins) or "standard"
// (exactly five: six or more does not win). Square index = row * size +
// column with row 0 the TOP row, the order the board is drawn in. The
// move-list notation is the squares separated by spaces ("h8 i9 j10"). Also
// how the page words a Gomoku score: a proven win or loss in a number of
// plies, or the engine's evaluation. Pure: no DOM.

export const DEFAULT_SIZE = 15;
export const MIN_SIZE = 5;
export const MAX_SIZE = 20;
export const RULES = ['freestyle', 'standard'];
const LETTERS = 'abcdefghijklmnopqrst';
const LINES = [[0, 1], [1, 0], [1, 1], [1, -1]];

/** The mark of the side to move at a ply: black (X) moves first. */
export const markAt = (ply) => (ply % 2 === 0 ? 'X' : 'O');

/** A square's name on a board of `size` lines: index 0 is the top left corner (a15 on 15x15). */
export const squareName = (i, size = DEFAULT_SIZE) => LETTERS[i % size] + (size - Math.floor(i / size));

/** A square name's index (either case) on a board of `size` lines, or -1 when it is not a square of it. */
export function squareIndex(name, size = DEFAULT_SIZE) {
  const m = /^([a-t])(\d{1,2})$/i.exec(String(name).trim());
  if (!m) return -1;
  const col = LETTERS.indexOf(m[1].toLowerCase());
  const row = Number(m[2]);
  if (col >= size || row < 1 || row > size) return -1;
  return (size - row) * size + col;
}

/** The name of the last column of a board: 'o' on 15x15. */
export const lastColumn = (size) => LETTERS[size - 1];

/** The squares of a winning line through square `i` of `mark` (its stone is on the board), or []:
 *  five or more in a row under freestyle, exactly five under the standard rule. */
export function lineThrough(cells, size, i, rule = 'freestyle') {
  const mark = cells[i];
  if (mark !== 'X' && mark !== 'O') return [];
  const r0 = Math.floor(i / size), c0 = i % size;
  for (const [dr, dc] of LINES) {
    const run = [i];
    for (const s of [1, -1]) {
      let r = r0 + s * dr, c = c0 + s * dc;
      while (r >= 0 && r < size && c >= 0 && c < size && cells[r * size + c] === mark) {
        run.push(r * size + c);
        r += s * dr;
        c += s * dc;
      }
    }
    if (run.length === 5 || (run.length > 5 && rule !== 'standard')) return run.sort((a, b) => a - b);
  }
  return [];
}

/** The position after a list of moves on a board of `size` lines under `rule`: cells ('X', 'O' or
 *  '.'), the side to move, `last` (the index of the last stone, or null), `winner` ('X', 'O' or
 *  null), `line` (the winning line's indices), `state` ('move' or 'over': a five, or a full board).
 *  Throws on a move that is not legal, with the move's number. */
export function replay(moves, size = DEFAULT_SIZE, rule = 'freestyle') {
  const cells = Array(size * size).fill('.');
  let last = null, winner = null, line = [];
  moves.forEach((mv, ply) => {
    const at = 'move ' + (ply + 1) + ': ';
    if (winner) throw new Error(at + 'the game is over (' + (winner === 'X' ? 'black' : 'white') + ' has five in a row)');
    const i = squareIndex(mv, size);
    if (i < 0) throw new Error(at + '“' + mv + '” is not a square of the ' + size + 'x' + size + ' board');
    if (cells[i] !== '.') throw new Error(at + squareName(i, size) + ' is already taken');
    cells[i] = markAt(ply);
    last = i;
    const run = lineThrough(cells, size, i, rule);
    if (run.length) { winner = cells[i]; line = run; }
  });
  const full = moves.length >= size * size;
  return { cells, size, toMove: markAt(moves.length), last, winner, line, state: winner || full ? 'over' : 'move' };
}

/** The settings a position is read with: {size, rule}, defaults for what is missing. */
const boardOf = (s) => ({ size: (s && s.size) || DEFAULT_SIZE, rule: (s && s.rule) || 'freestyle' });

/** The empty squares' names after `moves` (none when the game is over). */
export function legalMoves(moves, settings) {
  const { size, rule } = boardOf(settings);
  const pos = replay(moves, size, rule);
  if (pos.state === 'over') return [];
  const out = [];
  pos.cells.forEach((c, i) => { if (c === '.') out.push(squareName(i, size)); });
  return out;
}

/** True when `move` may be played after `moves`. */
export function isLegal(moves, move, settings) {
  const { size, rule } = boardOf(settings);
  const i = squareIndex(move, size);
  if (i < 0) return false;
  const pos = replay(moves, size, rule);
  return pos.state === 'move' && pos.cells[i] === '.';
}

/** True when a side has five (or the board is full). */
export const isOver = (moves, settings) => {
  const { size, rule } = boardOf(settings);
  return replay(moves, size, rule).state === 'over';
};

/** A list of moves in the notation: the squares, separated by spaces. */
export const moveText = (moves) => moves.join(' ');

/** Parses a move list in the notation, either case: squares separated by spaces, commas or
 *  semicolons, or written together ("h8i9j10"). {ok: true, moves} or {ok: false, message}. */
export function parseMoveList(text, settings) {
  const { size, rule } = boardOf(settings);
  const s = String(text).toLowerCase();
  const moves = [];
  const cells = Array(size * size).fill('.');
  let winner = null;
  const token = /[\s,;]*([a-z])(\d{1,2})/y;
  let pos = 0;
  while (pos < s.length) {
    if (/^[\s,;]*$/.test(s.slice(pos))) break;
    token.lastIndex = pos;
    const m = token.exec(s);
    const n = moves.length + 1;
    if (!m) {
      const rest = s.slice(pos).trim();
      return { ok: false, message: 'Move ' + n + ': “' + rest.split(/[\s,;]/)[0] + '” is not a square (a column letter and a row number, such as h8).' };
    }
    pos = token.lastIndex;
    const name = m[1] + m[2];
    const i = squareIndex(name, size);
    if (i < 0) {
      return { ok: false, message: 'Move ' + n + ': ' + name + ' is off the ' + size + 'x' + size + ' board (columns a to ' +
        lastColumn(size) + ', rows 1 to ' + size + ').' };
    }
    if (winner) return { ok: false, message: 'The game is over after move ' + (n - 1) + ' (five in a row); the list goes on after it.' };
    if (cells[i] !== '.') return { ok: false, message: 'Move ' + n + ': ' + name + ' is already taken.' };
    cells[i] = markAt(moves.length);
    moves.push(name);
    if (lineThrough(cells, size, i, rule).length) winner = cells[i];
  }
  return { ok: true, moves };
}

// --- scores, as the page words them ---
//
// A score is 'exact', a win or loss proven in `plies_to_end` plies (a draw on a full board), or an
// 'estimate': the engine's evaluation of the position after the move, for the side that plays it.

const plies = (n) => (n === 1 ? '1 ply' : n + ' plies');

/** True when a score is proven. */
export const isExact = (m) => m.exact !== false && typeof m.plies_to_end === 'number';

/** The estimate of a score that is not exact: its evaluation, else its score. */
export const estimate = (m) => (typeof m.evaluation === 'number' ? m.evaluation : typeof m.score === 'number' ? m.score : 0);

/** The result class of a score: w, d or l (by its sign when proven, by the estimate's otherwise). */
export function scoreClass(m) {
  const v = isExact(m) ? m.score : estimate(m);
  return v > 0 ? 'w' : v < 0 ? 'l' : 'd';
}

/** An evaluation in a few characters: '+35', '−120', '+1.2k', '0'. */
export function evalText(v) {
  const sign = v > 0 ? '+' : v < 0 ? '\u2212' : '';
  const a = Math.abs(Math.round(v));
  if (a === 0) return '0';
  if (a >= 10000) return sign + Math.round(a / 1000) + 'k';
  if (a >= 1000) return sign + (a / 1000).toFixed(1) + 'k';
  return sign + a;
}

/** A score on a square of the heat map: 'W7' (a win in 7 plies), 'L6', 'D', or the evaluation. */
export function scoreLabel(m) {
  if (isExact(m)) return m.score > 0 ? 'W' + m.plies_to_end : m.score < 0 ? 'L' + m.plies_to_end : 'D';
  return evalText(estimate(m));
}

/** A score in words, for the side that plays the move. */
export function scoreWords(m) {
  if (isExact(m)) return m.score > 0 ? 'wins in ' + plies(m.plies_to_end) : m.score < 0 ? 'loses in ' + plies(m.plies_to_end) : 'draw';
  const depth = typeof m.depth === 'number' ? ' at depth ' + m.depth : '';
  return 'evaluation ' + evalText(estimate(m)) + ' (not proven' + depth + ')';
}

/** The heat of each scored move, 0 (the worst of the list) to 1 (the best): proven wins are the
 *  hottest, proven losses the coldest, the estimates spread between by their evaluation. */
export function heat(moves) {
  const out = new Map();
  const est = (moves || []).filter((m) => !isExact(m) || m.score === 0);
  const vals = est.map((m) => (isExact(m) ? 0 : estimate(m)));
  const lo = Math.min(...vals), hi = Math.max(...vals);
  for (const m of moves || []) {
    let h;
    if (isExact(m) && m.score > 0) h = 1;
    else if (isExact(m) && m.score < 0) h = 0;
    else {
      const v = isExact(m) ? 0 : estimate(m);
      h = hi > lo ? 0.1 + 0.8 * (v - lo) / (hi - lo) : 0.5;
    }
    out.set(m.move, Math.round(h * 100) / 100);
  }
  return out;
}

/** The result of best play for `who`, the side to move in an answer. */
export function outcomeWords(d, who) {
  if (isExact(d)) {
    if (d.score > 0) return who + ' wins in ' + plies(d.plies_to_end) + ' (proven)';
    if (d.score < 0) return who + ' loses in ' + plies(d.plies_to_end) + ' (proven)';
    return 'draw';
  }
  const e = estimate(d);
  return (e > 0 ? who + ' looks better' : e < 0 ? who + ' looks worse' : 'about even') + ', evaluation ' + evalText(e) + ' (not proven)';
}

/** A hint's result for the player who asked. */
export function hintWords(d) {
  if (!isExact(d)) return 'the best the engine found in time, evaluation ' + evalText(estimate(d));
  if (d.score > 0) return 'you win in ' + plies(d.plies_to_end);
  if (d.score < 0) return 'you lose in ' + plies(d.plies_to_end);
  return 'a draw';
}

/** A search's score in a cell of the progress panel. */
export function progressScore(p) {
  if (isExact(p)) return p.score > 0 ? 'win in ' + p.plies_to_end : p.score < 0 ? 'loss in ' + p.plies_to_end : 'draw';
  return '\u2248' + evalText(estimate(p));
}
