// The Connect Four adapter: its board of seven column buttons, its
// settings (colour, lookahead, thinking time), its notation (columns 1 to
// 7, see connect4-model.js) and its part of the analysis panel (the exact
// result of every column).

import { $, el } from './dom.js';
import { COLS, ROWS, grid, isLegal, isOver, landingCell, legalMoves, markAt, moveText, parseMoveList, pvOverlay } from './connect4-model.js';
import { isExact, other, resultClass, scoreWords } from './format.js';
import { timedOptions } from './controller.js';

const CUT = 'not solved in time';

export function connectFour() {
  const boardEl = $('c4-board');
  const colEls = [];
  const discEls = [];   // discEls[cell], cell = row * 7 + col, row 0 = top
  let focusCol = 3;

  /** Display colour ('X' indigo, 'O' orange) of the pieces of a side in the notation. */
  const colourOf = (mark, s) => (mark === s.human ? s.colour : other(s.colour));
  const colourName = (mark, s) => (colourOf(mark, s) === 'X' ? 'indigo' : 'orange');

  const setFocusCol = (c) => {
    focusCol = c;
    colEls.forEach((x, k) => { x.tabIndex = k === c ? 0 : -1; });
  };

  // Seven column buttons of six slots each.
  for (let c = 0; c < COLS; c++) {
    const col = el('button', { type: 'button', class: 'c4-col', id: 'col-' + c, 'data-col': String(c), tabindex: c === 3 ? '0' : '-1' });
    for (let r = 0; r < ROWS; r++) {
      const slot = el('span', { class: 'slot', 'aria-hidden': 'true' });
      const disc = el('span', { class: 'disc', id: 'c4-cell-' + (r * COLS + c) });
      disc.addEventListener('animationend', () => disc.classList.remove('drop'));
      slot.appendChild(disc);
      col.appendChild(slot);
      discEls[r * COLS + c] = disc;
    }
    boardEl.appendChild(col);
    colEls.push(col);
  }

  return {
    id: 'connect4',
    boardEl,
    streams: true,
    timed: true,
    drawsLine: true,
    settingInputs: ['c4-colour'],
    notation: { format: moveText, parse: parseMoveList, input: 'moves-input', placeholder: 'e.g. 4453', inputMode: 'numeric',
      help: 'Columns 1 to 7 in the order played, first player first. Paste a list and press “Set up”.' },
    cutWords: CUT,
    scoringText: 'scoring each column…',
    scoredNoun: 'columns',
    bestLabel: 'Best column',
    endMore: 'Press “New game” to play again, or “Undo” to take a move back.',

    settings() {
      const first = $('first-player').value === 'computer' ? 'computer' : 'human';
      // X always moves first in the notation: the human is X when moving first.
      return { human: first === 'human' ? 'X' : 'O', first, colour: $('c4-colour').value === 'O' ? 'O' : 'X' };
    },
    ...timedOptions,
    requestBody: (moves) => ({ game: 'connect4', moves: moveText(moves) }),
    reviewBody: (moves) => ({ game: 'connect4', moves: moveText(moves) }),
    reviewWords: (score, plies, exact) => scoreWords({ score, plies_to_end: plies, exact }, CUT),
    isLegal: (moves, c) => isLegal(moves, c),
    isOver: (moves) => isOver(moves),
    legalMoves: (moves) => legalMoves(moves),

    sideName: colourName,
    moveName: (c) => 'column ' + (c + 1),
    moveLong: (c) => 'column ' + (c + 1),
    moveShort: (c) => (typeof c === 'number' ? String(c + 1) : '—'),
    pvItem: (c, mark, s) => ({ cls: colourOf(mark, s).toLowerCase(), glyph: '●', text: String(c + 1),
      label: colourName(mark, s) + ' in column ' + (c + 1) }),
    endText(outcome, winner, s) {
      if (outcome === 'draw') return 'Draw: the board is full.';
      return outcome === 'human' ? 'You win with four ' + colourName(winner, s) + ' in a row!'
        : 'The computer wins with four ' + colourName(winner, s) + ' in a row.';
    },
    overlay: (analysis, moves) => pvOverlay(analysis.ctx.moves, analysis.d.principal_variation, moves),

    render(v) {
      const s = v.settings;
      const g = grid(v.moves);
      const last = v.moves.length ? g.cellOfPly[v.moves.length - 1] : null;
      const dropped = v.animate && last !== null ? last : null;
      const ghostColour = colourOf(s.human, s).toLowerCase();
      // In a review: the best columns and the column played, the piece the move played drops shown.
      const rv = v.review;
      const moverColour = colourOf(markAt(v.moves.length), s).toLowerCase();
      for (let c = 0; c < COLS; c++) {
        const full = g.heights[c] >= ROWS;
        const col = colEls[c];
        const hinted = v.hint === c && v.playable;
        col.setAttribute('aria-disabled', String(!(v.playable && !full)));
        col.classList.toggle('hint', hinted);
        col.classList.toggle('rv-best', !!rv && rv.best.includes(c));
        col.classList.toggle('rv-played', !!rv && rv.played === c);
        col.tabIndex = c === focusCol ? 0 : -1;
        const pieces = [];
        for (let r = ROWS - 1; r >= 0; r--) {
          const m = g.cells[r * COLS + c];
          if (m !== '.') pieces.push(colourName(m, s));
        }
        let label = 'column ' + (c + 1) + ', ' + (pieces.length ? pieces.length + ' of 6: ' + pieces.join(', ') + ' from the bottom' : 'empty');
        if (full) label += ', full';
        if (hinted) label += ', suggested move';
        if (v.line.some((i) => i % COLS === c)) label += ', part of the winning four';
        if (rv && rv.best.includes(c)) label += ', best move';
        if (rv && rv.played === c) label += ', move played';
        col.setAttribute('aria-label', label);
        const landing = landingCell(g, c);
        for (let r = 0; r < ROWS; r++) {
          const cell = r * COLS + c;
          const disc = discEls[cell];
          const m = g.cells[cell];
          const marks = v.pv && v.pv.get(cell);
          let cls = 'disc';
          let text = '';
          if (m !== '.') {
            cls += ' ' + colourOf(m, s).toLowerCase();
            if (v.line.includes(cell)) cls += ' win';
            if (cell === last && !marks) cls += ' last';
            if (marks) { cls += ' pv played'; text = String(marks.n); }
          } else if (marks) {
            cls += ' pv ' + colourOf(marks.mark, s).toLowerCase();
            text = String(marks.n);
          } else if (cell === landing && rv && rv.played === c) {
            cls += ' ' + moverColour + ' rv-drop';
          } else if (cell === landing && v.playable) {
            cls += ' ' + ghostColour + (v.hint === c ? ' hint-disc' : ' ghost');
          }
          if (cell === dropped || (disc.classList.contains('drop') && m !== '.')) {
            cls += ' drop';
            // The height of the fall, through the CSSOM (allowed by the page's content policy).
            disc.style.setProperty('--fall', String(r + 1));
          }
          if (disc.className !== cls) disc.className = cls;
          if (disc.textContent !== text) disc.textContent = text;
        }
      }
    },

    resetMoveMap() {
      const list = $('col-scores');
      list.replaceChildren();
      for (let c = 0; c < COLS; c++) {
        const li = el('li', { 'data-col': String(c), 'aria-label': 'column ' + (c + 1) + ': not analysed yet' });
        li.appendChild(el('span', { class: 'cn', 'aria-hidden': 'true' }, String(c + 1)));
        li.appendChild(el('span', { class: 'res', 'aria-hidden': 'true' }, '·'));
        list.appendChild(li);
      }
    },

    /** The column scores: each column's exact result (or "not solved"), the chosen one starred. */
    showMoveMap(d, ctx) {
      const list = $('col-scores');
      list.replaceChildren();
      const byMove = new Map((d.moves || []).map((m) => [m.move, m]));
      for (let c = 0; c < COLS; c++) {
        const m = byMove.get(c);
        const li = el('li', { 'data-col': String(c) });
        li.appendChild(el('span', { class: 'cn', 'aria-hidden': 'true' }, String(c + 1)));
        let words;
        if (!m) {
          li.classList.add('full');
          li.appendChild(el('span', { class: 'res' }, '—'));
          words = 'full';
        } else {
          const exact = isExact(m);
          li.dataset.score = String(m.score);
          li.dataset.exact = String(exact);
          li.dataset.plies = exact ? String(m.plies_to_end) : '';
          if (exact) {
            li.classList.add(resultClass(m.score));
            li.appendChild(el('span', { class: 'res' }, m.score > 0 ? 'W' + m.plies_to_end : m.score < 0 ? 'L' + m.plies_to_end : 'D'));
          } else {
            li.classList.add('unk');
            li.appendChild(el('span', { class: 'res' }, '?'));
            li.appendChild(el('span', { class: 'why' }, 'not solved'));
          }
          words = scoreWords(m, CUT);
          if (c === d.best_move) li.classList.add('chosen');
        }
        const label = 'column ' + (c + 1) + ': ' + words + (c === d.best_move ? (ctx.source === 'hint' ? ' (suggested)' : ' (played)') : '');
        li.title = label;
        li.setAttribute('aria-label', label);
        list.appendChild(li);
      }
    },

    focus(c) {
      setFocusCol(c);
      colEls[c].focus({ preventScroll: true });
    },

    /** A click drops a piece; the arrows, Home and End move between columns; 1 to 7 drop directly. */
    bind(game) {
      colEls.forEach((b, c) => {
        b.addEventListener('click', () => { focusCol = c; game.humanMove(c); });
        b.addEventListener('focus', () => { if (focusCol !== c) setFocusCol(c); });
      });
      boardEl.addEventListener('keydown', (e) => {
        const i = colEls.indexOf(document.activeElement);
        if (i < 0) return;
        let j = null;
        if (e.key === 'ArrowLeft') j = (i + COLS - 1) % COLS;
        else if (e.key === 'ArrowRight') j = (i + 1) % COLS;
        else if (e.key === 'Home') j = 0;
        else if (e.key === 'End') j = COLS - 1;
        else if (/^[1-7]$/.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
          e.preventDefault();
          j = Number(e.key) - 1;
          colEls[j].focus();
          game.humanMove(j);
          return;
        }
        if (j !== null) { e.preventDefault(); colEls[j].focus(); }
      });
    },
  };
}

