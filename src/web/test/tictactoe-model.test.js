// The tic-tac-toe board model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { board, boardText, isLegal, isOver, legalMoves, markAt, rowCol, winningLine } from '../tictactoe-model.js';

test('moves alternate from the side that starts', () => {
  assert.equal(boardText([4, 0, 8], 'X'), 'O...X...X');
  assert.equal(boardText([4, 0, 8], 'O'), 'X...O...O');
  assert.equal(boardText([], 'X'), '.........');
  assert.equal(markAt(0, 'O'), 'O');
  assert.equal(markAt(1, 'O'), 'X');
});

test('three in a row in rows, columns and diagonals; none on a drawn board', () => {
  assert.deepEqual(winningLine(board([0, 3, 1, 4, 2], 'X')), [0, 1, 2]);
  assert.deepEqual(winningLine(board([1, 0, 2, 3, 4, 6], 'X')), [0, 3, 6]);
  assert.deepEqual(winningLine(board([2, 0, 4, 1, 6], 'X')), [2, 4, 6]);
  const drawn = [0, 4, 8, 1, 7, 6, 2, 5, 3];
  assert.equal(winningLine(board(drawn, 'X')), null);
  assert.equal(isOver(drawn, 'X'), true);
  assert.equal(isOver(drawn.slice(0, 8), 'X'), false);
  assert.equal(isOver([0, 3, 1, 4, 2], 'X'), true);
});

test('a move is legal on an empty cell of a game still in progress', () => {
  assert.equal(isLegal([], 4, 'X'), true);
  assert.equal(isLegal([4], 4, 'X'), false);
  assert.equal(isLegal([], 9, 'X'), false);
  assert.equal(isLegal([0, 3, 1, 4, 2], 5, 'X'), false, 'the game is over');
});

test('cells are named by row and column', () => {
  assert.equal(rowCol(0), 'row 1, column 1');
  assert.equal(rowCol(5), 'row 2, column 3');
  assert.equal(rowCol(7), 'row 3, column 2');
});

test('the legal moves: the empty cells, none once the game is over', () => {
  assert.deepEqual(legalMoves([], 'X'), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual(legalMoves([4, 0, 8], 'X'), [1, 2, 3, 5, 6, 7]);
  assert.deepEqual(legalMoves([0, 3, 1, 4, 2], 'X'), []);
  for (const moves of [[], [4], [4, 0, 8, 2]]) {
    assert.deepEqual(legalMoves(moves, 'O'), [...Array(9).keys()].filter((c) => isLegal(moves, c, 'O')));
  }
});
