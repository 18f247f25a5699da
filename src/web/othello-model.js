// Othello as the page models it: a game is the list of moves played, black
// (X) first, each a square name ('a1' to 'h8', column a-h, row 1 at the
// top) or PASS where a side has no legal move, so the side to move follows
// from the number of moves as in the other games. Square index = row * 8 +
// column, row 0 being row 1 (the .obf order a1 b1 ... h1 a2 ... h8). The
// move-list notation is the squares one after the other with the passes
// left out ("f5d6c3"); they are implied where a side has no move. Also how
// the page words an Othello score: an exact final disc difference, or the
// engine's evaluation in hundredths of a disc. Pure: no DOM.

export const SIZE = 8;
export const PASS = 'pass';
const FILES = 'abcdefgh';
const DIRECTIONS = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];

/** The mark of the side to move at a ply: black (X) moves first. */
export const markAt = (ply) => (ply % 2 === 0 ? 'X' : 'O');
const opponent = (mark) => (mark === 'X' ? 'O' : 'X');

/** A square's name: 0 is a1, 7 is h1, 63 is h8. */
export const squareName = (i) => FILES[i % SIZE] + (Math.floor(i / SIZE) + 1);

/** A square name's index (either case), or -1 when it is not a square. */
export function squareIndex(name) {
  const m = /^([a-h])([1-8])$/i.exec(String(name));
  return m ? (Number(m[2]) - 1) * SIZE + FILES.indexOf(m[1].toLowerCase()) : -1;
}

/** The start: white on d4 and e5, black on e4 and d5. */
export function startCells() {
  const cells = Array(SIZE * SIZE).fill('.');
  cells[squareIndex('d4')] = 'O';
  cells[squareIndex('e5')] = 'O';
  cells[squareIndex('e4')] = 'X';
  cells[squareIndex('d5')] = 'X';
  return cells;
}

/** The discs `mark` turns over by playing square `sq` (none: not a legal move). */
export function flipsOf(cells, sq, mark) {
  if (cells[sq] !== '.') return [];
  const foe = opponent(mark);
  const r0 = Math.floor(sq / SIZE), c0 = sq % SIZE;
  const out = [];
  for (const [dr, dc] of DIRECTIONS) {
    const run = [];
    let r = r0 + dr, c = c0 + dc;
    while (r >= 0 && r < SIZE && c >= 0 && c < SIZE && cells[r * SIZE + c] === foe) {
      run.push(r * SIZE + c);
      r += dr;
      c += dc;
    }
    if (run.length && r >= 0 && r < SIZE && c >= 0 && c < SIZE && cells[r * SIZE + c] === mark) out.push(...run);
  }
  return out.sort((a, b) => a - b);
}

/** The squares `mark` may play, ascending from a1. */
export function legalSquares(cells, mark) {
  const out = [];
  for (let sq = 0; sq < SIZE * SIZE; sq++) if (flipsOf(cells, sq, mark).length) out.push(sq);
  return out;
}

/** The discs of each colour. */
export function discCounts(cells) {
  let X = 0, O = 0;
  for (const c of cells) { if (c === 'X') X += 1; else if (c === 'O') O += 1; }
  return { X, O, empty: cells.length - X - O };
}

/** A position and what the side to move may do: 'move', 'pass' (no legal square, the game goes on)
 *  or 'over' (neither side can move). */
function describe(cells, toMove) {
  const legal = legalSquares(cells, toMove);
  const state = legal.length ? 'move' : legalSquares(cells, opponent(toMove)).length ? 'pass' : 'over';
  return { cells, toMove, legal, state };
}

/** One move from a position described by `describe`: the next position, or {error} in words. */
function step(pos, move) {
  const who = pos.toMove === 'X' ? 'black' : 'white';
  if (pos.state === 'over') return { error: 'the game is over' };
  if (move === PASS) {
    if (pos.state !== 'pass') return { error: who + ' has a legal move and cannot pass' };
    return { pos: describe(pos.cells, opponent(pos.toMove)), flipped: [] };
  }
  const sq = squareIndex(move);
  if (sq < 0) return { error: '“' + move + '” is not a square' };
  if (pos.cells[sq] !== '.') return { error: squareName(sq) + ' is already taken' };
  const flipped = flipsOf(pos.cells, sq, pos.toMove);
  if (!flipped.length) {
    return { error: squareName(sq) + ' is not a legal move for ' + who + ' (' +
      (pos.state === 'pass' ? who + ' has none and passes' : 'the legal moves are ' + pos.legal.map(squareName).join(', ')) + ')' };
  }
  const cells = pos.cells.slice();
  cells[sq] = pos.toMove;
  for (const f of flipped) cells[f] = pos.toMove;
  return { pos: describe(cells, opponent(pos.toMove)), flipped, square: sq };
}

/** The position after a list of moves (passes written as PASS): cells ('X', 'O' or '.'), the side to
 *  move, its legal squares, `state` ('move', 'pass' or 'over'), the last square played and the discs
 *  it turned over. Throws on a move that is not legal. */
export function replay(moves) {
  let pos = describe(startCells(), 'X');
  let last = null, flipped = [];
  moves.forEach((mv, ply) => {
    const next = step(pos, mv);
    if (next.error) throw new Error('move ' + (ply + 1) + ': ' + next.error);
    pos = next.pos;
    last = mv === PASS ? null : next.square;
    flipped = next.flipped;
  });
  return { ...pos, last, flipped };
}

/** The moves the side to move has after `moves`: square names, [PASS] when it has none but the game
 *  goes on, [] when the game is over. */
export function legalMoves(moves) {
  const pos = replay(moves);
  return pos.state === 'move' ? pos.legal.map(squareName) : pos.state === 'pass' ? [PASS] : [];
}

/** True when a square (not a pass) may be played after `moves`. */
export const isLegal = (moves, move) => move !== PASS && legalMoves(moves).includes(move);
/** True when neither side can move. */
export const isOver = (moves) => replay(moves).state === 'over';
/** True when the side to move has no legal square and must pass. */
export const mustPass = (moves) => replay(moves).state === 'pass';

/** A list of moves in the notation: the squares, the passes left out. */
export const moveText = (moves) => moves.filter((m) => m !== PASS).join('');

/** A list of moves as the service is asked about it: an array of the squares, the passes left out
 *  (the service implies them, and takes at most 64 moves) but for a last pass, which a list without it
 *  would not say: the side to move has passed. */
export function serviceMoves(moves) {
  const squares = moves.filter((m) => m !== PASS);
  return moves.length && moves[moves.length - 1] === PASS ? [...squares, PASS] : squares;
}

/** Parses a move list in the notation, either case; whitespace and commas are ignored, and a "pass"
 *  may be written where a side has no move. The implied passes are put in between the moves (not at
 *  the end: the side that must pass is then to move). {ok: true, moves} or {ok: false, message}. */
export function parseMoveList(text) {
  const s = String(text).replace(/[\s,]/g, '').toLowerCase();
  let pos = describe(startCells(), 'X');
  const moves = [];
  let n = 0;
  for (let i = 0; i < s.length;) {
    n += 1;
    let token;
    if (s.startsWith(PASS, i)) token = PASS;
    else if (i + 1 >= s.length) return { ok: false, message: 'The list ends in the middle of a move: “' + s.slice(i) + '”.' };
    else token = s.slice(i, i + 2);
    if (token !== PASS && squareIndex(token) < 0) {
      return { ok: false, message: 'Move ' + n + ': “' + token + '” is not a square (columns a to h, rows 1 to 8).' };
    }
    if (pos.state === 'over') return { ok: false, message: 'The game is over after move ' + (n - 1) + '; the list goes on after it.' };
    if (token !== PASS && pos.state === 'pass') {
      moves.push(PASS);
      pos = step(pos, PASS).pos;
    }
    const next = step(pos, token);
    if (next.error) return { ok: false, message: 'Move ' + n + ': ' + next.error + '.' };
    moves.push(token);
    pos = next.pos;
    i += token.length;
  }
  return { ok: true, moves };
}

// --- scores, as the page words them ---
//
// A score is one of three kinds, or a bound: 'exact', the final disc difference under best play; 'forced', the
// end of the game reached within the lookahead on every line that matters (a wipe-out, say) while
// other lines were cut: the disc difference of the line found, with `plies_to_end` and no
// evaluation; or an 'estimate', the engine's evaluation in hundredths of a disc. Near the end a
// move may also hold a 'bound' (`"bound": "upper"`): the best move was proven first and this one
// shown to score no more than it, without time left to find its own score.

const discs = (n) => (n === 1 ? '1 disc' : n + ' discs');
const minus = (n) => (n < 0 ? '\u2212' + -n : n > 0 ? '+' + n : '0');
const plies = (n) => (n === 1 ? '1 ply' : n + ' plies');

/** What a score is: 'exact', 'forced', 'estimate' or 'bound' (see above). */
export function scoreKind(m) {
  if (m.bound === 'upper') return 'bound';
  if (m.exact !== false) return 'exact';
  return typeof m.evaluation !== 'number' && typeof m.plies_to_end === 'number' ? 'forced' : 'estimate';
}
/** True when a score is a disc difference (exact or forced), not an estimate. */
const isResult = (m) => scoreKind(m) !== 'estimate';
/** The estimate of a score that is not exact, in discs (the evaluation is in hundredths). */
export const estimate = (m) => (typeof m.evaluation === 'number' ? m.evaluation / 100 : 0);
/** The size of an estimate in discs to a tenth, rounded half away from zero: '2.2' for -215. */
const tenths = (m) => (Math.round(Math.abs(typeof m.evaluation === 'number' ? m.evaluation : 0) / 10) / 10).toFixed(1);

/** The result class of a score: w, d or l, by the sign of the disc difference or of the estimate. */
export function scoreClass(m) {
  const v = isResult(m) ? m.score : estimate(m);
  return v > 0 ? 'w' : v < 0 ? 'l' : 'd';
}

/** A score in a square of the analysis map: a disc difference '+6', '−32', '0', or an estimate in
 *  discs to a tenth, '+1.3' (whole discs from 10 on: '−13'), which the map shows as an estimate. */
export function scoreLabel(m) {
  if (scoreKind(m) === 'bound') return '\u2264' + minus(m.score);
  if (isResult(m)) return minus(m.score);
  const size = Number(tenths(m));
  if (size === 0) return '0';
  return (estimate(m) > 0 ? '+' : '\u2212') + (size >= 10 ? String(Math.round(size)) : size.toFixed(1));
}

/** A disc difference in words, for the side it counts for ('wins by 6 discs'). */
function resultWords(score) {
  if (score > 0) return 'wins by ' + discs(score);
  if (score < 0) return 'loses by ' + discs(-score);
  return 'draw';
}

/** A score in words, for the side that plays the move. */
export function scoreWords(m) {
  const kind = scoreKind(m);
  if (kind === 'exact') return resultWords(m.score);
  if (kind === 'forced') return resultWords(m.score) + ' (forced within the lookahead)';
  if (kind === 'bound') return 'at most ' + minus(m.score) + ' (not solved: no better than the best move)';
  const depth = typeof m.depth === 'number' ? ' at depth ' + m.depth : '';
  if (tenths(m) === '0.0') return 'about even (estimate' + depth + ')';
  return 'about ' + tenths(m) + ' discs ' + (estimate(m) > 0 ? 'ahead' : 'behind') + ' (estimate' + depth + ')';
}

/** The result of best play for `who`, the side to move in an answer. */
export function outcomeWords(d, who) {
  const kind = scoreKind(d);
  if (kind !== 'estimate') {
    const end = typeof d.plies_to_end === 'number' ? plies(d.plies_to_end) + ' to the end' : '';
    const why = kind === 'forced' ? 'forced within the lookahead' + (end ? ', ' + end : '') : end;
    return (d.score === 0 ? 'draw' : who + ' ' + resultWords(d.score)) + (why ? ' (' + why + ')' : '');
  }
  if (tenths(d) === '0.0') return 'about even (not solved: an estimate)';
  return who + ' looks ' + tenths(d) + ' discs ' + (estimate(d) > 0 ? 'ahead' : 'behind') + ' (not solved: an estimate)';
}

/** A hint's result for the player who asked. */
export function hintWords(d) {
  if (!isResult(d)) return 'the best the engine found in time, not solved';
  const forced = scoreKind(d) === 'forced' ? ', forced within the lookahead' : '';
  if (d.score > 0) return 'you win by ' + discs(d.score) + forced;
  if (d.score < 0) return 'you lose by ' + discs(-d.score) + forced;
  return 'a draw' + forced;
}

/** A search's score in a cell of the progress panel: the final disc difference, or the estimate. */
export function progressScore(p) {
  if (isResult(p)) return p.score === 0 ? 'draw' : 'final ' + minus(p.score);
  return typeof p.evaluation === 'number' ? '\u2248' + scoreLabel(p) : 'not solved';
}
