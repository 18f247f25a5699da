// The tic-tac-toe adapter: its board of nine buttons, its settings and
// notation (cells 0 to 8, named by row and column), and its part of the
// analysis panel (the score of every empty cell on a mini board).

import { $, el } from './dom.js';
import { TIMEOUT_MS } from './client.js';
import { board, boardText, isLegal, isOver, legalMoves, other, rowCol } from './tictactoe-model.js';
import { isExact, resultClass, scoreLabel, scoreWords } from './format.js';

const SVG_X = '<svg class="mark" viewBox="0 0 40 40" aria-hidden="true"><path d="M8 8L32 32M32 8L8 32" stroke="currentColor" stroke-width="6" stroke-linecap="round" fill="none"/></svg>';
const SVG_O = '<svg class="mark" viewBox="0 0 40 40" aria-hidden="true"><circle cx="20" cy="20" r="13" stroke="currentColor" stroke-width="6" fill="none"/></svg>';
const GHOST = { X: SVG_X.replace('class="mark"', ''), O: SVG_O.replace('class="mark"', '') };
const CUT = 'beyond the lookahead';

export function tictactoe() {
  const boardEl = $('board');
  const cells = Array.from({ length: 9 }, (_, i) => $('cell-' + i));
  const starterOf = (s) => (s.first === 'human' ? s.human : other(s.human));

  return {
    id: 'tictactoe',
    boardEl,
    streams: false,
    timed: false,
    drawsLine: false,
    settingInputs: ['human-mark'],
    notation: null,
    cutWords: CUT,
    endMore: 'Press “New game” to play again.',

    settings() {
      return {
        human: $('human-mark').value === 'O' ? 'O' : 'X',
        first: $('first-player').value === 'computer' ? 'computer' : 'human',
      };
    },
    computerOptions() {
      return { level: Number($('difficulty').value) || 10 };
    },
    hintOptions: () => ({ mistake: 0 }),
    timeoutMs: () => TIMEOUT_MS,
    requestBody: (moves, toMove, s) => ({ board: boardText(moves, starterOf(s)), to_move: toMove }),
    // The review's X is the side that moved first (O, when the page's game began with O).
    reviewBody: (moves) => ({ game: 'tictactoe', moves }),
    reviewWords: (score, plies, exact) => scoreWords({ score, plies_to_end: plies, exact }, CUT),
    isLegal: (moves, cell, s) => isLegal(moves, cell, starterOf(s)),
    isOver: (moves, s) => isOver(moves, starterOf(s)),
    legalMoves: (moves, s) => legalMoves(moves, starterOf(s)),

    sideName: (mark) => mark,
    moveName: rowCol,
    moveLong: (i) => rowCol(i) + ' · cell ' + i,
    moveShort: (i) => String(i),
    pvItem: (i, mark) => ({ cls: mark.toLowerCase(), glyph: mark, text: String(i), label: mark + ' at ' + rowCol(i) }),
    endText(outcome, winner) {
      if (outcome === 'draw') return 'Draw: nobody wins.';
      return outcome === 'human' ? 'You win with ' + winner + '!' : 'The computer wins with ' + winner + '.';
    },
    overlay: () => null,

    render(v) {
      const marks = board(v.moves, starterOf(v.settings));
      const rv = v.review;
      const mover = v.moves.length % 2 === 0 ? starterOf(v.settings) : other(starterOf(v.settings));
      marks.forEach((c, i) => {
        const b = cells[i];
        const empty = c === '.';
        b.className = 'cell ' + (empty ? 'empty' : c.toLowerCase());
        if (v.line.includes(i)) b.classList.add('win');
        if (empty && v.hint === i) b.classList.add('hint');
        if (!empty && v.lastComputer === i) b.classList.add('last');
        if (rv && rv.best.includes(i)) b.classList.add('rv-best');
        if (rv && rv.played === i) b.classList.add('rv-played');
        const wanted = empty ? '' : c;
        if (b.dataset.mark !== wanted) {
          b.dataset.mark = wanted;
          b.innerHTML = empty ? '<span class="ghost" aria-hidden="true"></span>' : (c === 'X' ? SVG_X : SVG_O);
        }
        if (empty) {
          const ghost = b.querySelector('.ghost');
          // In a review, the move played shows as the mover's mark.
          if (ghost) ghost.innerHTML = GHOST[rv ? mover : v.settings.human];
        }
        b.setAttribute('aria-disabled', String(!(v.playable && empty)));
        let label = rowCol(i) + ', ' + (empty ? 'empty' : c);
        if (empty && v.hint === i) label += ', suggested move';
        if (v.line.includes(i)) label += ', winning line';
        if (rv && rv.best.includes(i)) label += ', best move';
        if (rv && rv.played === i) label += ', move played (' + mover + ')';
        b.setAttribute('aria-label', label);
      });
    },

    resetMoveMap() {
      const mini = $('mini-board');
      mini.replaceChildren();
      for (let i = 0; i < 9; i++) {
        const li = el('li', { 'aria-label': rowCol(i) + ': not analysed yet' });
        li.appendChild(el('span', { class: 'idx', 'aria-hidden': 'true' }, String(i)));
        mini.appendChild(li);
      }
    },

    /** The mini board: each empty cell with its score, the chosen one starred. */
    showMoveMap(d, ctx, s) {
      const mini = $('mini-board');
      mini.replaceChildren();
      const byMove = new Map((d.moves || []).map((m) => [m.move, m]));
      board(ctx.moves, starterOf(s)).forEach((c, i) => {
        const li = el('li');
        li.appendChild(el('span', { class: 'idx', 'aria-hidden': 'true' }, String(i)));
        if (c !== '.') {
          li.classList.add('taken', c.toLowerCase());
          li.append(c);
          li.setAttribute('aria-label', rowCol(i) + ': ' + c);
        } else if (byMove.has(i)) {
          const m = byMove.get(i);
          li.classList.add(resultClass(m.score));
          if (i === d.best_move) li.classList.add('chosen');
          li.append(scoreLabel(m));
          const words = rowCol(i) + ': ' + scoreWords(m, CUT) + (i === d.best_move ? ' (played)' : '');
          li.title = words;
          li.setAttribute('aria-label', words);
        } else {
          li.setAttribute('aria-label', rowCol(i) + ': empty');
        }
        mini.appendChild(li);
      });
      $('legend-cut').hidden = !(d.moves || []).some((m) => !isExact(m));
    },

    focus(i) { if (cells[i]) cells[i].focus({ preventScroll: true }); },

    /** Clicks play a cell; the arrow keys, Home and End move between cells. */
    bind(game) {
      cells.forEach((b, i) => b.addEventListener('click', () => game.humanMove(i)));
      boardEl.addEventListener('keydown', (e) => {
        const i = cells.indexOf(document.activeElement);
        if (i < 0) return;
        const steps = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -3, ArrowDown: 3 };
        let j = null;
        if (e.key in steps) {
          j = i + steps[e.key];
          if (e.key === 'ArrowLeft' && i % 3 === 0) j = i + 2;
          if (e.key === 'ArrowRight' && i % 3 === 2) j = i - 2;
          j = (j + 9) % 9;
        } else if (e.key === 'Home') j = 0;
        else if (e.key === 'End') j = 8;
        if (j !== null) { e.preventDefault(); cells[j].focus(); }
      });
    },
  };
}
