// Tic-tac-toe as the page models it: a game is the list of cells played
// (0 to 8, row by row), the first by `starter`. Pure: no DOM.

import { other } from './format.js';

export { other };

export const CELLS = 9;

/** The mark of the piece played at a ply of a game `starter` began. */
export const markAt = (ply, starter) => (ply % 2 === 0 ? starter : other(starter));

/** The nine cells ('X', 'O' or '.') after a list of moves. */
export function board(moves, starter) {
  const cells = Array(CELLS).fill('.');
  moves.forEach((i, ply) => { cells[i] = markAt(ply, starter); });
  return cells;
}

/** The board in the service's notation: nine characters, row by row. */
export const boardText = (moves, starter) => board(moves, starter).join('');

export const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/** The first three in a row on a board, or null. */
export function winningLine(cells) {
  for (const line of LINES) {
    const [a, b, c] = line;
    if (cells[a] !== '.' && cells[a] === cells[b] && cells[a] === cells[c]) return line;
  }
  return null;
}

/** True when the game is over: three in a row, or a full board. */
export function isOver(moves, starter) {
  const cells = board(moves, starter);
  return winningLine(cells) !== null || !cells.includes('.');
}

/** True when `cell` may be played after `moves`. */
export function isLegal(moves, cell, starter) {
  return Number.isInteger(cell) && cell >= 0 && cell < CELLS && !moves.includes(cell) && !isOver(moves, starter);
}

/** The empty cells that may be played after `moves`, in order. */
export function legalMoves(moves, starter) {
  return isOver(moves, starter) ? [] : [...Array(CELLS).keys()].filter((cell) => !moves.includes(cell));
}

export const rowCol = (i) => 'row ' + (Math.floor(i / 3) + 1) + ', column ' + ((i % 3) + 1);
