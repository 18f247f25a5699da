// The Gomoku board model, its notation and how the page words its scores.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  evalText, heat, hintWords, isExact, isLegal, isOver, legalMoves, lineThrough, markAt, moveText, outcomeWords,
  parseMoveList, progressScore, replay, scoreClass, scoreLabel, scoreWords, squareIndex, squareName,
} from '../gomoku-model.js';

const words = (text) => text.split(' ');
const rows = (pos) => Array.from({ length: pos.size }, (_, r) => pos.cells.slice(r * pos.size, (r + 1) * pos.size).join(''));

test('squares are a column letter from the left and a row number from the bottom, h8 the centre of 15x15', () => {
  assert.equal(squareName(0), 'a15');
  assert.equal(squareName(14), 'o15');
  assert.equal(squareName(224), 'o1');
  assert.equal(squareName(210), 'a1');
  assert.equal(squareIndex('h8'), 7 * 15 + 7);
  assert.equal(squareIndex('H8'), 112);
  assert.equal(squareIndex('a1', 20), 19 * 20);
  assert.equal(squareIndex('t20', 20), 19);
  for (const bad of ['p1', 'a16', 'a0', 'a', '', 'h 8', '8h']) assert.equal(squareIndex(bad), -1, bad);
  assert.equal(squareIndex('f5', 5), -1);
  assert.equal(squareIndex('e5', 5), 4);
  for (const n of [5, 15, 20]) for (let i = 0; i < n * n; i++) assert.equal(squareIndex(squareName(i, n), n), i);
});

test('black (X) moves first, and the board is drawn top row first', () => {
  assert.equal(markAt(0), 'X');
  assert.equal(markAt(1), 'O');
  const pos = replay(words('h8 i9 a1'), 15);
  assert.equal(pos.toMove, 'O');
  assert.equal(pos.last, squareIndex('a1'));
  const r = rows(pos);
  assert.equal(r[14], 'X..............');
  assert.equal(r[7], '.......X.......');
  assert.equal(r[6], '........O......');
  assert.equal(pos.state, 'move');
});

test('five in a row wins, in each of the four directions, and the line is given', () => {
  const lines = {
    row: 'a1 a2 b1 b2 c1 c2 d1 d2 e1',
    column: 'a1 b1 a2 b2 a3 b3 a4 b4 a5',
    diagonal: 'a1 a2 b2 a3 c3 a4 d4 a6 e5',
    antidiagonal: 'e1 a1 d2 a2 c3 a3 b4 a6 a5',
  };
  for (const [name, list] of Object.entries(lines)) {
    const pos = replay(words(list));
    assert.equal(pos.winner, 'X', name);
    assert.equal(pos.state, 'over', name);
    assert.equal(pos.line.length, 5, name);
    assert.ok(pos.line.includes(pos.last), name);
  }
  assert.deepEqual(replay(words('a1 a2 b1 b2 c1 c2 d1 d2 e1')).line.map((i) => squareName(i)).sort(), ['a1', 'b1', 'c1', 'd1', 'e1']);
  // White wins too.
  assert.equal(replay(words('o15 a1 o13 b1 o11 c1 o9 d1 n2 e1')).winner, 'O');
  // Four is not five.
  assert.equal(replay(words('a1 a2 b1 b2 c1 c2 d1')).winner, null);
});

test('six in a row wins under freestyle, not under the standard rule', () => {
  // Black: a1 b1 c1 e1 f1, then d1 joins them into six.
  const six = words('a1 a3 b1 b3 c1 c3 e1 d3 f1 o15 d1');
  assert.equal(replay(six, 15, 'freestyle').winner, 'X');
  assert.equal(replay(six, 15, 'freestyle').line.length, 6);
  const std = replay(six, 15, 'standard');
  assert.equal(std.winner, null);
  assert.equal(std.state, 'move');
  // Exactly five still wins under the standard rule.
  assert.equal(replay(words('a1 a2 b1 b2 c1 c2 d1 d2 e1'), 15, 'standard').winner, 'X');
  const cells = Array(25).fill('.');
  for (let c = 0; c < 5; c++) cells[c] = 'X';
  assert.equal(lineThrough(cells, 5, 2, 'standard').length, 5);
});

test('the edges: a five along the edge of a 5x5 board, nothing wraps around', () => {
  assert.equal(replay(words('a1 a2 b1 b2 c1 c2 d1 d2 e1'), 5).winner, 'X');
  // e1 then a2 are not in a row (no wrap from the right edge to the left).
  const pos = replay(words('c1 a5 d1 b5 e1 c5 a2 d5 b2'), 5);
  assert.equal(pos.winner, null);
  // Nor from the top row to the bottom one.
  assert.equal(replay(words('a2 e2 a3 e3 a4 d4 a5 c4 a1'), 5).winner, 'X');
  assert.equal(replay(words('b1 e2 b2 e3 b3 d4 b4 c4 a5'), 5).winner, null);
});

test('a full board is over without a winner', () => {
  // Columns filled in pairs so that no line of five of one colour appears on 5x5:
  // rows alternate patterns XXOOX / OOXXO.
  const pattern = ['XXOOX', 'OOXXO', 'XXOOX', 'OOXXO', 'XXOOX'];
  const xs = [], os = [];
  pattern.forEach((row, r) => [...row].forEach((m, c) => (m === 'X' ? xs : os).push('abcde'[c] + (5 - r))));
  assert.equal(xs.length, 13);
  assert.equal(os.length, 12);
  const moves = [];
  for (let i = 0; i < 25; i++) moves.push(i % 2 === 0 ? xs[i / 2] : os[(i - 1) / 2]);
  const pos = replay(moves, 5);
  assert.equal(pos.winner, null);
  assert.equal(pos.state, 'over');
  assert.equal(isOver(moves, { size: 5 }), true);
  assert.deepEqual(legalMoves(moves, { size: 5 }), []);
});

test('illegal moves are refused with their number', () => {
  assert.throws(() => replay(words('h8 h8')), /move 2: h8 is already taken/);
  assert.throws(() => replay(words('h8 p1')), /move 2: “p1” is not a square of the 15x15 board/);
  assert.throws(() => replay(words('a1 a2 b1 b2 c1 c2 d1 d2 e1 o15')), /move 10: the game is over \(black has five in a row\)/);
});

test('legal moves: the empty points while the game goes on', () => {
  assert.equal(legalMoves([]).length, 225);
  assert.equal(legalMoves(['h8']).length, 224);
  assert.equal(legalMoves([], { size: 20 }).length, 400);
  assert.equal(isLegal(['h8'], 'h8'), false);
  assert.equal(isLegal(['h8'], 'i9'), true);
  assert.equal(isLegal(['h8'], 'p9'), false);
  assert.equal(isLegal(['h8'], 'p9', { size: 16 }), true);
  assert.equal(isLegal(words('a1 a2 b1 b2 c1 c2 d1 d2 e1'), 'o15'), false);
  assert.equal(isOver(words('a1 a2 b1 b2 c1 c2 d1 d2 e1')), true);
});

test('the move list: squares separated by spaces, read back in any spacing and case', () => {
  assert.equal(moveText(['h8', 'i9', 'j10']), 'h8 i9 j10');
  assert.deepEqual(parseMoveList('h8 i9 j10'), { ok: true, moves: ['h8', 'i9', 'j10'] });
  assert.deepEqual(parseMoveList(' H8,I9;  j10 '), { ok: true, moves: ['h8', 'i9', 'j10'] });
  assert.deepEqual(parseMoveList('h8i9j10k11'), { ok: true, moves: ['h8', 'i9', 'j10', 'k11'] });
  assert.deepEqual(parseMoveList(''), { ok: true, moves: [] });
  assert.deepEqual(parseMoveList('t20 a1', { size: 20 }), { ok: true, moves: ['t20', 'a1'] });
  const text = 'h8 i9 g7 j10 f6 k11 e5';
  assert.deepEqual(parseMoveList(moveText(parseMoveList(text).moves)).moves, words(text));
});

test('a move list that is not a game is refused, naming the move', () => {
  assert.match(parseMoveList('h8 h8').message, /^Move 2: h8 is already taken\.$/);
  assert.match(parseMoveList('h8 p1').message, /^Move 2: p1 is off the 15x15 board \(columns a to o, rows 1 to 15\)\.$/);
  assert.match(parseMoveList('h8 i9 zz').message, /^Move 3: “zz” is not a square/);
  assert.match(parseMoveList('a1 a2 b1 b2 c1 c2 d1 d2 e1 o15').message, /game is over after move 9/);
  assert.match(parseMoveList('e5 f6', { size: 5 }).message, /Move 2: f6 is off the 5x5 board \(columns a to e, rows 1 to 5\)/);
  // Six in a row does not end a standard game: the list may go on.
  assert.equal(parseMoveList('a1 a3 b1 b3 c1 c3 e1 d3 f1 o15 d1 o14', { rule: 'standard' }).ok, true);
  assert.equal(parseMoveList('a1 a3 b1 b3 c1 c3 e1 d3 f1 o15 d1 o14', { rule: 'freestyle' }).ok, false);
});

test('scores: a proven win or loss in plies, else an evaluation', () => {
  const win = { move: 'h8', score: 1000, exact: true, plies_to_end: 7 };
  const loss = { move: 'a1', score: -1000, exact: true, plies_to_end: 6 };
  const est = { move: 'i9', score: 35, exact: false, evaluation: 35, depth: 9 };
  const bad = { move: 'j9', score: -1234, exact: false, evaluation: -1234 };
  assert.equal(isExact(win), true);
  assert.equal(isExact(est), false);
  assert.equal(scoreLabel(win), 'W7');
  assert.equal(scoreLabel(loss), 'L6');
  assert.equal(scoreLabel(est), '+35');
  assert.equal(scoreLabel(bad), '\u22121.2k');
  assert.equal(evalText(0), '0');
  assert.equal(evalText(25000), '+25k');
  assert.equal(scoreClass(win), 'w');
  assert.equal(scoreClass(loss), 'l');
  assert.equal(scoreClass(bad), 'l');
  assert.equal(scoreWords(win), 'wins in 7 plies');
  assert.equal(scoreWords(est), 'evaluation +35 (not proven at depth 9)');
  assert.equal(outcomeWords(win, 'black'), 'black wins in 7 plies (proven)');
  assert.equal(outcomeWords(est, 'white'), 'white looks better, evaluation +35 (not proven)');
  assert.equal(hintWords(loss), 'you lose in 6 plies');
  assert.equal(progressScore(win), 'win in 7');
  assert.equal(progressScore(est), '\u2248+35');
});

test('the heat map: proven wins hottest, proven losses coldest, evaluations spread between', () => {
  const h = heat([
    { move: 'a1', score: 1000, exact: true, plies_to_end: 9 },
    { move: 'b1', score: 50, exact: false, evaluation: 50 },
    { move: 'c1', score: -20, exact: false, evaluation: -20 },
    { move: 'd1', score: 10, exact: false, evaluation: 10 },
    { move: 'e1', score: -1000, exact: true, plies_to_end: 4 },
  ]);
  assert.equal(h.get('a1'), 1);
  assert.equal(h.get('e1'), 0);
  assert.equal(h.get('b1'), 0.9);
  assert.equal(h.get('c1'), 0.1);
  assert.ok(h.get('d1') > h.get('c1') && h.get('d1') < h.get('b1'));
  assert.equal(heat([{ move: 'h8', score: 3, exact: false, evaluation: 3 }]).get('h8'), 0.5);
  assert.equal(heat([]).size, 0);
});
