// The Connect Four board model and its move-list notation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COLS, ROWS, grid, isLegal, isOver, landingCell, legalMoves, lineThrough, markAt, moveText, parseMoveList, pvOverlay } from '../connect4-model.js';

const cell = (row, col) => row * COLS + col;

test('pieces fall to the lowest empty slot, X first', () => {
  const g = grid([3, 3, 4]);
  assert.equal(g.cells[cell(5, 3)], 'X');
  assert.equal(g.cells[cell(4, 3)], 'O');
  assert.equal(g.cells[cell(5, 4)], 'X');
  assert.deepEqual(g.heights, [0, 0, 0, 2, 1, 0, 0]);
  assert.deepEqual(g.cellOfPly, [cell(5, 3), cell(4, 3), cell(5, 4)]);
  assert.equal(g.cells.filter((c) => c !== '.').length, 3);
  assert.equal(landingCell(g, 3), cell(3, 3));
  assert.equal(landingCell(grid([0, 0, 0, 0, 0, 0]), 0), null);
  assert.equal(markAt(0), 'X');
  assert.equal(markAt(1), 'O');
});

test('four in a row is found in every direction, and three is not four', () => {
  const horizontal = grid([0, 0, 1, 1, 2, 2, 3]);
  assert.deepEqual(lineThrough(horizontal.cells, cell(5, 3)), [cell(5, 0), cell(5, 1), cell(5, 2), cell(5, 3)]);
  const vertical = grid([6, 0, 6, 0, 6, 0, 6]);
  assert.deepEqual(lineThrough(vertical.cells, cell(2, 6)), [cell(2, 6), cell(3, 6), cell(4, 6), cell(5, 6)]);
  // X climbs a diagonal from the bottom left: columns 1 to 4 (0 to 3) at heights 1 to 4.
  const rising = grid([0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3]);
  assert.deepEqual(lineThrough(rising.cells, cell(2, 3)), [cell(2, 3), cell(3, 2), cell(4, 1), cell(5, 0)]);
  const falling = grid([6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3]);
  assert.deepEqual(lineThrough(falling.cells, cell(2, 3)), [cell(2, 3), cell(3, 4), cell(4, 5), cell(5, 6)]);
  const three = grid([0, 0, 1, 1, 2, 2]);
  assert.equal(lineThrough(three.cells, cell(5, 2)), null);
  assert.equal(lineThrough(three.cells, cell(0, 0)), null, 'an empty cell is on no line');
});

test('a game is over at four in a row or a full board', () => {
  assert.equal(isOver([]), false);
  assert.equal(isOver([0, 0, 1, 1, 2, 2]), false);
  assert.equal(isOver([0, 0, 1, 1, 2, 2, 3]), true);
  // A full board with no four in a row (found by a depth-first search over the model).
  const full = parseMoveList('111111222222333333544444455555666666777777').moves;
  assert.equal(full.length, COLS * ROWS);
  assert.equal(isOver(full), true);
  assert.equal(isOver(full.slice(0, -1)), false);
});

test('a move is legal in a column with room, before the game is over', () => {
  assert.equal(isLegal([], 0), true);
  assert.equal(isLegal([0, 0, 0, 0, 0, 0], 0), false);
  assert.equal(isLegal([0, 0, 0, 0, 0, 0], 1), true);
  assert.equal(isLegal([0, 0, 1, 1, 2, 2, 3], 4), false);
  assert.equal(isLegal([], 7), false);
  assert.equal(isLegal([], -1), false);
  assert.equal(isLegal([], 1.5), false);
});

test('the legal moves: every column with room, none once the game is over', () => {
  assert.deepEqual(legalMoves([]), [0, 1, 2, 3, 4, 5, 6]);
  assert.deepEqual(legalMoves([0, 0, 0, 0, 0, 0]), [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(legalMoves([0, 0, 1, 1, 2, 2, 3]), []);
  for (const moves of [[], [3, 3, 4, 2], [0, 0, 0, 0, 0, 0, 6]]) {
    assert.deepEqual(legalMoves(moves), [...Array(COLS).keys()].filter((c) => isLegal(moves, c)));
  }
});

test('the move list: digits 1 to 7, separators ignored, round trip', () => {
  assert.deepEqual(parseMoveList('4453'), { ok: true, moves: [3, 3, 4, 2] });
  assert.deepEqual(parseMoveList(' 4, 4 5\n3 '), { ok: true, moves: [3, 3, 4, 2] });
  assert.deepEqual(parseMoveList(''), { ok: true, moves: [] });
  assert.equal(moveText([3, 3, 4, 2]), '4453');
  const game = [3, 2, 3, 4, 0, 6, 5, 1];
  assert.deepEqual(parseMoveList(moveText(game)).moves, game);
});

test('the move list refuses what is not a legal game, saying why', () => {
  const notDigit = parseMoveList('4a5');
  assert.equal(notDigit.ok, false);
  assert.match(notDigit.message, /“a” is not a column/);
  assert.match(parseMoveList('408').message, /“0” is not a column/);
  assert.match(parseMoveList('48').message, /“8” is not a column/);
  const full = parseMoveList('4444444');
  assert.equal(full.ok, false);
  assert.match(full.message, /Move 7 plays column 4, which is already full/);
  const past = parseMoveList('11223344');
  assert.equal(past.ok, false);
  assert.match(past.message, /four in a row at move 7/);
  assert.equal(parseMoveList('1122334').ok, true, 'a list may end with the winning move');
});

test('the line of best play is drawn while the game follows it', () => {
  const base = [3, 3];
  const pv = [4, 4, 2];
  const start = pvOverlay(base, pv, base);
  assert.deepEqual([...start.entries()], [
    [cell(5, 4), { n: 1, mark: 'X', played: false }],
    [cell(4, 4), { n: 2, mark: 'O', played: false }],
    [cell(5, 2), { n: 3, mark: 'X', played: false }],
  ]);
  const followed = pvOverlay(base, pv, [3, 3, 4]);
  assert.deepEqual(followed.get(cell(5, 4)), { n: 1, mark: 'X', played: true });
  assert.equal(followed.size, 3);
  assert.equal(pvOverlay(base, pv, [3, 3, 5]), null, 'the game left the line');
  assert.equal(pvOverlay(base, pv, [3]), null, 'the game is before the analysed position');
  assert.equal(pvOverlay(base, pv, [3, 3, 4, 4, 2, 1]), null, 'the game went past the line');
  assert.equal(pvOverlay(base, [], base), null);
  // A line running into a full column stops there.
  assert.equal(pvOverlay([0, 0, 0, 0, 0], [0, 0, 1], [0, 0, 0, 0, 0]).size, 1);
});
