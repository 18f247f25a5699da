// The Gomoku adapter: its board of size x size points (15x15 by default,
// the size and rule asked for in the request: 5 to 20 lines, freestyle or
// standard), the last stone and the winning five marked, its settings
// (black moves first: the side that starts is black; the level, the
// thinking time, the board's size and the rule), its notation (squares a1
// to o15, see gomoku-model.js) and its part of the analysis panel: the
// candidate moves' scores as a heat map on a small board.

import { $, el, gridKeys } from './dom.js';
import {
  DEFAULT_SIZE, heat, hintWords, isLegal, isOver, legalMoves, moveText, outcomeWords, parseMoveList,
  progressScore, replay, scoreClass, scoreLabel, scoreWords, squareIndex, squareName, isExact,
} from './gomoku-model.js';
import { timedOptions } from './controller.js';
import { labelScored } from './analysis.js';

const CUT = 'not proven: an evaluation';

const colourName = (mark) => (mark === 'X' ? 'black' : 'white');
const LETTERS = 'abcdefghijklmnopqrst';

/** The board's size and rule as the page's settings give them. */
function boardSettings() {
  const size = Number($('gmk-size').value) || DEFAULT_SIZE;
  const rule = $('gmk-rule').value === 'standard' ? 'standard' : 'freestyle';
  return { size, rule };
}

export function gomoku() {
  const boardEl = $('gmk-board');
  let points = [];
  let stones = [];
  let size = 0;
  let focusSq = 0;
  let game = null;

  const setFocus = (i) => {
    focusSq = i;
    points.forEach((b, k) => { b.tabIndex = k === i ? 0 : -1; });
  };

  /** The board's points and its coordinates, built again when the size changes. */
  function build(n) {
    if (n === size) return;
    size = n;
    boardEl.replaceChildren();
    boardEl.style.setProperty('--n', String(n));
    $('gmk-frame').style.setProperty('--n', String(n));
    points = [];
    stones = [];
    focusSq = Math.floor(n / 2) * n + Math.floor(n / 2);
    for (let i = 0; i < n * n; i++) {
      const r = Math.floor(i / n), c = i % n;
      const name = squareName(i, n);
      const edges = (r === 0 ? ' edge-t' : '') + (r === n - 1 ? ' edge-b' : '') + (c === 0 ? ' edge-l' : '') + (c === n - 1 ? ' edge-r' : '');
      const b = el('button', { type: 'button', class: 'gmk-pt' + edges, id: 'gp-' + name, 'data-square': name, tabindex: i === focusSq ? '0' : '-1' });
      const stone = el('span', { class: 'stone', 'aria-hidden': 'true' });
      stone.addEventListener('animationend', () => stone.classList.remove('place'));
      b.appendChild(stone);
      boardEl.appendChild(b);
      points.push(b);
      stones.push(stone);
      if (game) {
        b.addEventListener('click', () => { setFocus(i); game.humanMove(name); });
        b.addEventListener('focus', () => { if (focusSq !== i) setFocus(i); });
      }
    }
    const files = $('gmk-files'), ranks = $('gmk-ranks');
    files.replaceChildren(...Array.from({ length: n }, (_, c) => el('li', null, LETTERS[c])));
    ranks.replaceChildren(...Array.from({ length: n }, (_, r) => el('li', null, String(n - r))));
  }

  build(DEFAULT_SIZE);

  return {
    id: 'gomoku',
    boardEl,
    streams: true,
    timed: true,
    drawsLine: false,
    settingInputs: ['gmk-size', 'gmk-rule'],
    notation: {
      format: moveText, parse: (text) => parseMoveList(text, boardSettings()), input: 'moves-input',
      placeholder: 'e.g. h8 i9 j10', inputMode: 'text',
      help: 'Squares such as h8 (column letter from the left, row number from the bottom) in the order played, black first. Paste a list and press “Set up”.',
    },
    cutWords: CUT,
    scoringText: 'scoring the candidate moves…',
    scoredNoun: 'moves',
    bestLabel: 'Best move',
    progressScore,
    /** The service scores the strongest candidates only: how many is not known ahead. */
    scoredTotal: () => null,
    outcomeText: outcomeWords,
    hintText: hintWords,
    endMore: 'Press “New game” to play again, or “Undo” to take a move back.',

    settings() {
      const first = $('first-player').value === 'computer' ? 'computer' : 'human';
      // Black (X) always moves first: the human is black when moving first.
      return { human: first === 'human' ? 'X' : 'O', first, ...boardSettings() };
    },
    ...timedOptions,
    requestBody: (moves, toMove, s) => ({ game: 'gomoku', moves: moveText(moves), size: s.size, rule: s.rule }),
    isLegal,
    isOver,
    legalMoves,

    sideName: colourName,
    moveName: (m) => m,
    moveLong: (m) => (m === null || m === undefined ? '—' : m),
    moveShort: (m) => (m === null || m === undefined ? '—' : m),
    pvItem: (m, mark) => ({ cls: colourName(mark), glyph: mark === 'X' ? '●' : '○', text: m, label: colourName(mark) + ' on ' + m }),
    endText(outcome, winner, s) {
      if (outcome === 'draw') return 'Draw: the board is full.';
      const five = s.rule === 'standard' ? 'exactly five' : 'five';
      return outcome === 'human' ? 'You win with ' + five + ' in a row!' : 'The computer wins with ' + five + ' in a row.';
    },
    overlay: () => null,

    render(v) {
      const s = v.settings;
      build(s.size);
      const pos = replay(v.moves, s.size, s.rule);
      const line = new Set((v.line && v.line.length ? v.line.map((m) => squareIndex(m, s.size)) : pos.line));
      boardEl.dataset.size = String(s.size);
      boardEl.dataset.rule = s.rule;
      for (let i = 0; i < s.size * s.size; i++) {
        const b = points[i];
        const stone = stones[i];
        const c = pos.cells[i];
        const name = squareName(i, s.size);
        const hinted = v.playable && v.hint === name;
        const open = v.playable && c === '.';
        b.classList.toggle('open', open);
        b.classList.toggle('hint', hinted);
        b.classList.toggle('last', pos.last === i);
        b.classList.toggle('win', line.has(i));
        stone.classList.toggle('black', c === 'X');
        stone.classList.toggle('white', c === 'O');
        if (c === '.') stone.classList.remove('place');
        else if (v.animate && pos.last === i) {
          stone.classList.remove('place');
          void stone.offsetWidth;
          stone.classList.add('place');
        }
        b.setAttribute('aria-disabled', String(!open));
        let label = name + ', ' + (c === '.' ? 'empty' : colourName(c));
        if (hinted) label += ', suggested move';
        if (pos.last === i) label += ', last move';
        if (line.has(i)) label += ', part of the winning line';
        b.setAttribute('aria-label', label);
      }
      const toMove = pos.state === 'over' ? null : pos.toMove;
      $('gmk-turn-x').classList.toggle('turn', toMove === 'X');
      $('gmk-turn-o').classList.toggle('turn', toMove === 'O');
      $('gmk-stones-x').textContent = String(pos.cells.filter((c) => c === 'X').length);
      $('gmk-stones-o').textContent = String(pos.cells.filter((c) => c === 'O').length);
      $('gmk-rules-note').textContent = s.size + 'x' + s.size + ', ' + (s.rule === 'standard' ? 'exactly five wins' : 'five or more win') +
        (toMove ? '; ' + colourName(toMove) + ' to move' : '; game over');
    },

    resetMoveMap() {
      $('gmk-heat').replaceChildren();
      $('gmk-map-note').textContent = '';
    },

    /** The heat map: the analysed position's stones and each candidate's score, warmer for the
     *  better moves of the side to move, the chosen one starred. */
    showMoveMap(d, ctx, s) {
      const n = (s && s.size) || d.size || DEFAULT_SIZE;
      const rule = (s && s.rule) || d.rule || 'freestyle';
      const map = $('gmk-heat');
      map.replaceChildren();
      map.style.setProperty('--n', String(n));
      const pos = replay(ctx.moves, n, rule);
      const scored = (d.moves || []).filter((m) => typeof m.move === 'string');
      const byMove = new Map(scored.map((m) => [m.move, m]));
      const heats = heat(scored);
      for (let i = 0; i < n * n; i++) {
        const name = squareName(i, n);
        const c = pos.cells[i];
        const m = byMove.get(name);
        const li = el('li', { 'data-square': name });
        if (c !== '.') {
          li.classList.add('taken');
          if (pos.last === i) li.classList.add('last');
          li.appendChild(el('span', { class: 'stone ' + colourName(c), 'aria-hidden': 'true' }));
          li.setAttribute('aria-label', name + ': ' + colourName(c));
        } else if (m) {
          li.classList.add('scored', scoreClass(m));
          if (!isExact(m)) li.classList.add('est');
          li.dataset.score = String(m.score);
          li.dataset.exact = String(isExact(m));
          if (typeof m.evaluation === 'number') li.dataset.evaluation = String(m.evaluation);
          li.dataset.heat = String(heats.get(name));
          // Through the CSSOM, which the page's content policy allows (a style attribute it would not).
          li.style.setProperty('--heat', String(heats.get(name)));
          li.append(el('span', { class: 'lbl' }, scoreLabel(m)));
          labelScored(li, name, scoreWords(m), d, ctx);
        } else {
          li.setAttribute('aria-label', name + ': empty, not a candidate');
        }
        map.appendChild(li);
      }
      const mover = colourName(ctx.toMove);
      $('gmk-map-note').textContent = scored.length
        ? scored.length + (scored.length === 1 ? ' candidate move' : ' candidate moves') + ' for ' + mover + ', the strongest the engine found;' +
          ' the others of the ' + (n * n - ctx.moves.length) + ' empty points are not shown.'
        : 'No move to score.';
    },

    focus(m) {
      const i = squareIndex(m, size);
      if (i < 0) return;
      setFocus(i);
      points[i].focus({ preventScroll: true });
    },

    /** A click plays a point; the arrows, Home and End move between points. */
    bind(controller) {
      game = controller;
      const n = size;
      size = 0;
      build(n);
      gridKeys(boardEl, () => points, () => size);
    },
  };
}
