// The Othello adapter: its board of 64 square buttons (the legal squares
// marked while it is the human's turn, the last move and the discs it
// turned over animated), the disc count, its settings (black moves first:
// the side that starts is black; lookahead by level, thinking time), its
// notation (square names, passes left out, see othello-model.js), its pass,
// and its part of the analysis panel (the score of every legal square on a
// small board).

import { $, el, gridKeys } from './dom.js';
import {
  PASS, SIZE, discCounts, hintWords, isLegal, isOver, legalMoves, moveText, mustPass, outcomeWords, parseMoveList,
  progressScore, replay, scoreClass, scoreKind, scoreLabel, scoreWords, serviceMoves, squareIndex, squareName,
} from './othello-model.js';
import { timedOptions } from './controller.js';
import { labelScored } from './analysis.js';

const CUT = 'not solved: an estimate';

const colourName = (mark) => (mark === 'X' ? 'black' : 'white');
const discsText = (n) => (n === 1 ? '1 disc' : n + ' discs');
const squaresText = (n) => (n === 1 ? '1 legal square' : n + ' legal squares');

export function othello() {
  const boardEl = $('oth-board');
  const squares = [];
  const stones = [];
  let focusSq = squareIndex('d3');

  const setFocus = (i) => {
    focusSq = i;
    squares.forEach((b, k) => { b.tabIndex = k === i ? 0 : -1; });
  };

  for (let i = 0; i < SIZE * SIZE; i++) {
    const name = squareName(i);
    const b = el('button', { type: 'button', class: 'oth-sq', id: 'sq-' + name, 'data-square': name, tabindex: i === focusSq ? '0' : '-1' });
    const stone = el('span', { class: 'stone', 'aria-hidden': 'true' });
    stone.addEventListener('animationend', () => stone.classList.remove('place', 'flip'));
    b.appendChild(stone);
    boardEl.appendChild(b);
    squares.push(b);
    stones.push(stone);
  }

  /** Restarts a stone's animation (a disc turned over twice in a row turns again). */
  const animate = (stone, cls) => {
    stone.classList.remove('place', 'flip');
    void stone.offsetWidth;
    stone.classList.add(cls);
  };

  return {
    id: 'othello',
    boardEl,
    streams: true,
    timed: true,
    drawsLine: false,
    settingInputs: [],
    notation: { format: moveText, parse: parseMoveList, input: 'moves-input', placeholder: 'e.g. f5d6c3', inputMode: 'text',
      help: 'Squares a1 to h8 in the order played, black first, passes left out. Paste a list and press “Set up”.' },
    cutWords: CUT,
    scoringText: 'scoring each move…',
    scoredNoun: 'moves',
    bestLabel: 'Best move',
    progressScore,
    pass: PASS,
    mustPass,
    outcomeText: outcomeWords,
    hintText: hintWords,
    endMore: 'Press “New game” to play again, or “Undo” to take a move back.',

    settings() {
      const first = $('first-player').value === 'computer' ? 'computer' : 'human';
      // Black (X) always moves first: the human is black when moving first.
      return { human: first === 'human' ? 'X' : 'O', first };
    },
    ...timedOptions,
    requestBody: (moves) => ({ game: 'othello', moves: serviceMoves(moves) }),
    // The passes written out: the review numbers the plies as the page does, and judges no pass.
    reviewBody: (moves) => ({ game: 'othello', moves: moves.slice() }),
    reviewWords: (score, plies, exact) => scoreWords(exact ? { score } : { score, exact: false, evaluation: Math.round(score * 100) }),
    // The model's functions take the moves alone (the settings passed after them do not matter).
    isLegal,
    isOver,
    legalMoves,

    sideName: colourName,
    moveName: (m) => m,
    moveLong: (m) => (m === PASS ? 'pass (no legal square)' : m),
    moveShort: (m) => m,
    pvItem: (m, mark) => ({ cls: colourName(mark), glyph: mark === 'X' ? '●' : '○', text: m,
      label: m === PASS ? colourName(mark) + ' passes' : colourName(mark) + ' on ' + m }),
    endText(outcome, winner, s, moves) {
      const n = discCounts(replay(moves).cells);
      if (outcome === 'draw') return 'Draw: ' + n.X + ' discs each.';
      const score = n[winner] + ' to ' + n[winner === 'X' ? 'O' : 'X'];
      return outcome === 'human' ? 'You win, ' + score + '!' : 'The computer wins, ' + score + '.';
    },
    overlay: () => null,

    render(v) {
      const pos = replay(v.moves);
      const legal = new Set(v.playable ? pos.legal : []);
      const turned = new Set(v.animate ? pos.flipped : []);
      for (let i = 0; i < SIZE * SIZE; i++) {
        const b = squares[i];
        const stone = stones[i];
        const c = pos.cells[i];
        const name = squareName(i);
        const hinted = v.playable && v.hint === name;
        b.classList.toggle('legal', legal.has(i));
        b.classList.toggle('hint', hinted);
        b.classList.toggle('last', pos.last === i);
        b.classList.toggle('rv-best', !!v.review && v.review.best.includes(name));
        b.classList.toggle('rv-played', !!v.review && v.review.played === name);
        stone.classList.toggle('black', c === 'X');
        stone.classList.toggle('white', c === 'O');
        if (c === '.') stone.classList.remove('place', 'flip');
        else if (v.animate && pos.last === i) animate(stone, 'place');
        else if (turned.has(i)) animate(stone, 'flip');
        b.setAttribute('aria-disabled', String(!legal.has(i)));
        let label = name + ', ' + (c === '.' ? 'empty' : colourName(c));
        if (legal.has(i)) label += ', legal move';
        if (hinted) label += ', suggested move';
        if (pos.last === i) label += ', last move';
        if (v.review && v.review.best.includes(name)) label += ', best move';
        if (v.review && v.review.played === name) label += ', move played';
        b.setAttribute('aria-label', label);
      }
      const n = discCounts(pos.cells);
      $('oth-black').textContent = n.X;
      $('oth-white').textContent = n.O;
      const toMove = pos.state === 'over' ? null : pos.toMove;
      $('oth-count-x').classList.toggle('turn', toMove === 'X');
      $('oth-count-o').classList.toggle('turn', toMove === 'O');
      $('oth-count').setAttribute('aria-label', 'Discs: black ' + n.X + ', white ' + n.O +
        (toMove ? ', ' + colourName(toMove) + ' to move' : ', game over'));
    },

    resetMoveMap() {
      const map = $('oth-scores');
      map.replaceChildren();
      for (let i = 0; i < SIZE * SIZE; i++) map.appendChild(el('li', { 'data-square': squareName(i) }));
      $('oth-map-note').textContent = '';
    },

    /** The small board: the discs of the analysed position and every legal square's score, the
     *  chosen one starred. */
    showMoveMap(d, ctx) {
      const map = $('oth-scores');
      map.replaceChildren();
      const pos = replay(ctx.moves);
      const byMove = new Map((d.moves || []).map((m) => [m.move, m]));
      for (let i = 0; i < SIZE * SIZE; i++) {
        const name = squareName(i);
        const c = pos.cells[i];
        const m = byMove.get(name);
        const li = el('li', { 'data-square': name });
        if (c !== '.') {
          li.classList.add('taken');
          li.appendChild(el('span', { class: 'stone ' + colourName(c), 'aria-hidden': 'true' }));
          li.setAttribute('aria-label', name + ': ' + colourName(c));
        } else if (m) {
          li.classList.add('scored', scoreClass(m));
          if (scoreKind(m) === 'estimate') li.classList.add('est');
          li.dataset.score = String(m.score);
          li.dataset.exact = String(m.exact !== false);
          if (typeof m.evaluation === 'number') li.dataset.evaluation = String(m.evaluation);
          li.append(scoreLabel(m));
          labelScored(li, name, scoreWords(m), d, ctx);
        } else {
          li.setAttribute('aria-label', name + ': empty');
        }
        map.appendChild(li);
      }
      const n = discCounts(pos.cells);
      const mover = colourName(ctx.toMove);
      $('oth-map-note').textContent = byMove.has(PASS)
        ? mover[0].toUpperCase() + mover.slice(1) + ' has no legal square and passes.'
        : 'Black ' + discsText(n.X) + ', white ' + discsText(n.O) + '; ' + squaresText((d.moves || []).length) + ' for ' + mover + '.';
    },

    focus(m) {
      const i = squareIndex(m);
      if (i < 0) return;
      setFocus(i);
      squares[i].focus({ preventScroll: true });
    },

    /** A click plays a square; the arrows, Home and End move between squares. */
    bind(game) {
      squares.forEach((b, i) => {
        b.addEventListener('click', () => { setFocus(i); game.humanMove(squareName(i)); });
        b.addEventListener('focus', () => { if (focusSq !== i) setFocus(i); });
      });
      gridKeys(boardEl, () => squares, () => SIZE);
    },
  };
}
