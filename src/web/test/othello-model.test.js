// The Othello board model, its notation and how the page words its scores.
// The positions are those of tests/api/othello.rs, their boards and disc
// counts as the service answers them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PASS, discCounts, flipsOf, hintWords, isLegal, isOver, legalMoves, legalSquares, markAt, moveText, mustPass,
  outcomeWords, parseMoveList, progressScore, replay, scoreClass, scoreKind, scoreLabel, scoreWords, serviceMoves, squareIndex, squareName,
  startCells,
} from '../othello-model.js';

const OPENING = 'f5d6c3d3c4';
const BLACK_PASSES = 'd3c3e6d2d1e1b2c1';
const WIPED_OUT = 'd3c3f5f4f3d2d1e3b3';
const ENDGAME = 'f5f4f3f6d3f2g6c3b3b2g4g3b1d2c4c5f1g2g1g5c6a1h6a2b5c7f7d6c2h5b8e7d1a4a3g7h4e3e6h1d8e1e8b4f8h2c1h8a6b6h3g8';

const squares = (text) => text.match(/../g);
const rows = (cells) => Array.from({ length: 8 }, (_, r) => cells.slice(r * 8, r * 8 + 8).join(''));

test('squares are named by column a-h and row 1-8, row 1 at the top, in either case', () => {
  assert.equal(squareName(0), 'a1');
  assert.equal(squareName(7), 'h1');
  assert.equal(squareName(8), 'a2');
  assert.equal(squareName(63), 'h8');
  assert.equal(squareIndex('d3'), 19);
  assert.equal(squareIndex('H8'), 63);
  for (const bad of ['i1', 'a9', 'a0', 'a', 'pass', '']) assert.equal(squareIndex(bad), -1, bad);
  for (let i = 0; i < 64; i++) assert.equal(squareIndex(squareName(i)), i);
});

test('the start has four discs in the centre and black to move with four squares', () => {
  const cells = startCells();
  assert.deepEqual(rows(cells).slice(3, 5), ['...OX...', '...XO...']);
  assert.deepEqual(discCounts(cells), { X: 2, O: 2, empty: 60 });
  assert.deepEqual(legalMoves([]), ['d3', 'c4', 'f5', 'e6']);
  assert.equal(markAt(0), 'X');
  assert.equal(markAt(1), 'O');
});

test('a move turns over the discs it brackets in all eight directions, and only those', () => {
  // Black on d4 with white on every neighbour and black beyond each: all eight lines flip.
  const cells = Array(64).fill('.');
  const at = (name, mark) => { cells[squareIndex(name)] = mark; };
  for (const n of ['c3', 'd3', 'e3', 'c4', 'e4', 'c5', 'd5', 'e5']) at(n, 'O');
  for (const n of ['b2', 'd2', 'f2', 'b4', 'f4', 'b6', 'd6', 'f6']) at(n, 'X');
  assert.deepEqual(flipsOf(cells, squareIndex('d4'), 'X').map(squareName), ['c3', 'd3', 'e3', 'c4', 'e4', 'c5', 'd5', 'e5']);
  // A line that ends in an empty square or the edge does not flip.
  at('b2', '.');
  at('f4', '.');
  assert.deepEqual(flipsOf(cells, squareIndex('d4'), 'X').map(squareName), ['d3', 'e3', 'c4', 'c5', 'd5', 'e5']);
  assert.deepEqual(flipsOf(cells, squareIndex('c3'), 'X'), [], 'an occupied square flips nothing');
  assert.deepEqual(flipsOf(cells, squareIndex('a1'), 'O'), [], 'no bracket, no move');
});

test('move counts from the start agree with the published perft figures', () => {
  // 4, 12, 56, 244, 1396 positions after 1 to 5 plies (no pass happens this early).
  const perft = (cells, mark, depth) => {
    if (depth === 0) return 1;
    let n = 0;
    for (const sq of legalSquares(cells, mark)) {
      const next = cells.slice();
      next[sq] = mark;
      for (const f of flipsOf(cells, sq, mark)) next[f] = mark;
      n += perft(next, mark === 'X' ? 'O' : 'X', depth - 1);
    }
    return n;
  };
  assert.deepEqual([1, 2, 3, 4, 5].map((d) => perft(startCells(), 'X', d)), [4, 12, 56, 244, 1396]);
});

test('a game replays to the service\'s board, side to move, legal squares and disc counts', () => {
  const opening = replay(squares(OPENING));
  assert.equal(opening.toMove, 'O');
  assert.equal(opening.state, 'move');
  assert.deepEqual(legalMoves(squares(OPENING)), ['b3', 'f3', 'f4', 'b5', 'g5', 'g6']);
  assert.deepEqual(discCounts(opening.cells), { X: 6, O: 3, empty: 55 });
  const after = replay([...squares(OPENING), 'f4']);
  assert.deepEqual(rows(after.cells), ['........', '........', '..XO....', '..XXXO..', '...OOX..', '...O....', '........', '........']);
  assert.equal(squareName(after.last), 'f4');
  assert.deepEqual(after.flipped.map(squareName), ['e5']);
  assert.deepEqual(discCounts(after.cells), { X: 5, O: 5, empty: 54 });
  assert.equal(isLegal(squares(OPENING), 'f4'), true);
  assert.equal(isLegal(squares(OPENING), 'c4'), false, 'occupied');
  assert.equal(isLegal(squares(OPENING), 'a1'), false, 'flips nothing');
  assert.equal(isLegal(squares(OPENING), PASS), false);

  const endgame = squares(ENDGAME);
  assert.equal(replay(endgame).toMove, 'X');
  assert.deepEqual(legalMoves(endgame), ['a5', 'a7', 'b7', 'd7', 'h7']);
  assert.deepEqual(discCounts(replay(endgame).cells), { X: 29, O: 27, empty: 8 });
  const h7 = replay([...endgame, 'h7']);
  assert.deepEqual(rows(h7.cells), ['OXXXOOOO', 'OXXX.XOO', 'XOOXXXXX', 'OOXOOXXX', '.OOOOXXX', 'XOOOOOXX', '..X.XXXX', '.X.XXXOO']);
  assert.deepEqual(discCounts(h7.cells), { X: 32, O: 25, empty: 7 });
  assert.throws(() => replay(['f5', 'f5']), /move 2: f5 is already taken/);
});

test('a side without a legal square passes, and the game ends when neither side can move', () => {
  const moves = squares(BLACK_PASSES);
  assert.equal(replay(moves).toMove, 'X');
  assert.equal(mustPass(moves), true);
  assert.equal(isOver(moves), false);
  assert.deepEqual(legalMoves(moves), [PASS]);
  assert.deepEqual(rows(replay(moves).cells).slice(0, 6), ['..OOO...', '.X.O....', '..XX....', '...XX...', '...XX...', '....X...']);
  // The pass keeps the board and gives white the move.
  const passed = replay([...moves, PASS]);
  assert.equal(passed.toMove, 'O');
  assert.deepEqual(passed.cells, replay(moves).cells);
  assert.equal(passed.last, null);
  assert.ok(legalMoves([...moves, PASS]).length > 0 && !legalMoves([...moves, PASS]).includes(PASS));
  assert.throws(() => replay([...squares(OPENING), PASS]), /white has a legal move and cannot pass/);
  assert.throws(() => replay([...moves, 'a1']), /black has none and passes/);

  const wiped = squares(WIPED_OUT);
  assert.equal(isOver(wiped), true);
  assert.equal(mustPass(wiped), false);
  assert.deepEqual(legalMoves(wiped), []);
  assert.deepEqual(discCounts(replay(wiped).cells), { X: 13, O: 0, empty: 51 });
  assert.equal(isLegal(wiped, 'a1'), false);
  assert.throws(() => replay([...wiped, 'a1']), /the game is over/);
});

test('the notation leaves the passes out, and parsing puts them back between the moves', () => {
  assert.equal(moveText(squares(OPENING)), OPENING);
  assert.deepEqual(parseMoveList(OPENING), { ok: true, moves: squares(OPENING) });
  assert.deepEqual(parseMoveList(' F5 d6, C3\nd3 c4 '), { ok: true, moves: squares(OPENING) });
  assert.deepEqual(parseMoveList(''), { ok: true, moves: [] });
  // White answers black's pass: the list leaves the pass out, the game has it.
  const white = legalMoves([...squares(BLACK_PASSES), PASS])[0];
  const parsed = parseMoveList(BLACK_PASSES + white);
  assert.deepEqual(parsed, { ok: true, moves: [...squares(BLACK_PASSES), PASS, white] });
  assert.equal(moveText(parsed.moves), BLACK_PASSES + white);
  assert.deepEqual(parseMoveList(BLACK_PASSES + ' pass ' + white), parsed, 'a written pass where one is due');
  // A list that ends where a side must pass leaves that side to move, to pass itself.
  assert.deepEqual(parseMoveList(BLACK_PASSES), { ok: true, moves: squares(BLACK_PASSES) });
  assert.deepEqual(parseMoveList(BLACK_PASSES + 'pass'), { ok: true, moves: [...squares(BLACK_PASSES), PASS] });
});

test('the service is asked with the passes left out but for a last one, which says whose turn it is', () => {
  const moves = squares(BLACK_PASSES);
  assert.deepEqual(serviceMoves([]), []);
  assert.deepEqual(serviceMoves(moves), moves);
  assert.deepEqual(serviceMoves([...moves, PASS]), [...moves, PASS]);
  assert.deepEqual(serviceMoves([...moves, PASS, 'd6']), [...moves, 'd6']);
});

test('a move list that is not a legal game is refused with the move and why', () => {
  const refused = (text, says) => {
    const r = parseMoveList(text);
    assert.equal(r.ok, false, text);
    assert.ok(r.message.includes(says), `${text}: ${r.message}`);
  };
  refused(OPENING + 'c4', 'Move 6: c4 is already taken');
  refused(OPENING + 'a1', 'Move 6: a1 is not a legal move for white (the legal moves are b3, f3, f4, b5, g5, g6)');
  refused('f5z9', 'Move 2: “z9” is not a square');
  refused('f5d', 'ends in the middle of a move: “d”');
  refused(WIPED_OUT + 'a1', 'The game is over after move 9');
  refused('f5pass', 'Move 2: white has a legal move and cannot pass');
});

test('scores read as disc differences when exact and as estimates otherwise', () => {
  const exact = (score) => ({ score, exact: true, plies_to_end: 8 });
  const est = (evaluation, depth = 11) => ({ score: 0, exact: false, evaluation, depth });
  assert.deepEqual([exact(6), exact(-32), exact(0)].map(scoreLabel), ['+6', '\u221232', '0']);
  assert.deepEqual([est(130), est(-215), est(-4), est(null), est(-1250), est(999)].map(scoreLabel),
    ['+1.3', '\u22122.2', '0', '0', '\u221213', '+10']);
  assert.deepEqual([exact(6), exact(-32), exact(0), est(130), est(-30), est(0)].map(scoreClass), ['w', 'l', 'd', 'w', 'l', 'd']);
  assert.equal(scoreWords(exact(6)), 'wins by 6 discs');
  assert.equal(scoreWords(exact(-1)), 'loses by 1 disc');
  assert.equal(scoreWords(exact(0)), 'draw');
  assert.equal(scoreWords(est(-215)), 'about 2.2 discs behind (estimate at depth 11)');
  assert.equal(scoreWords(est(2)), 'about even (estimate at depth 11)');
  assert.equal(outcomeWords({ ...exact(-6), plies_to_end: 8 }, 'black'), 'black loses by 6 discs (8 plies to the end)');
  assert.equal(outcomeWords({ score: 0, exact: false, evaluation: 150 }, 'white'), 'white looks 1.5 discs ahead (not solved: an estimate)');
  assert.equal(hintWords(exact(4)), 'you win by 4 discs');
  assert.equal(hintWords(est(10)), 'the best the engine found in time, not solved');
  // A wipe-out found within the lookahead while other lines were cut: a result, not an estimate.
  const forced = { score: 64, exact: false, plies_to_end: 11, evaluation: null, depth: 11 };
  assert.deepEqual([exact(6), forced, est(130), { score: 0, exact: false, plies_to_end: null }].map(scoreKind),
    ['exact', 'forced', 'estimate', 'estimate']);
  assert.equal(scoreLabel(forced), '+64');
  assert.equal(scoreClass(forced), 'w');
  assert.equal(scoreWords(forced), 'wins by 64 discs (forced within the lookahead)');
  assert.equal(outcomeWords(forced, 'white'), 'white wins by 64 discs (forced within the lookahead, 11 plies to the end)');
  assert.equal(hintWords(forced), 'you win by 64 discs, forced within the lookahead');
  assert.equal(progressScore(forced), 'final +64');
  assert.equal(progressScore({ score: -6, exact: true }), 'final \u22126');
  assert.equal(progressScore({ score: 0, exact: true }), 'draw');
  assert.equal(progressScore({ score: 0, exact: false }), 'not solved');
  assert.equal(progressScore({ score: 0, exact: false, evaluation: -30 }), '\u2248\u22120.3');
  // A move shown no better than the proven best, not solved itself: an upper bound.
  const bound = (score) => ({ score, exact: false, bound: 'upper', evaluation: null, depth: null, plies_to_end: null });
  assert.deepEqual([bound(-20), bound(6), bound(0)].map(scoreKind), ['bound', 'bound', 'bound']);
  assert.deepEqual([bound(-20), bound(6), bound(0)].map(scoreLabel), ['\u2264\u221220', '\u2264+6', '\u22640']);
  assert.deepEqual([bound(-20), bound(6)].map(scoreClass), ['l', 'w']);
  assert.equal(scoreWords(bound(-20)), 'at most \u221220 (not solved: no better than the best move)');
  assert.equal(scoreWords(bound(6)), 'at most +6 (not solved: no better than the best move)');
});
