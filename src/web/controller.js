// The game controller: turns, undo, hints, difficulty, the session's
// scores, the analysis panel and the search progress, written once for
// every game. What differs between games (the board, how a move is named
// and entered, the request's fields) is the game's adapter; a new game is
// one adapter module plus its registration in app.js.
//
// A game is a list of moves. The adapter's `settings()` gives the human's
// side in the game's notation (`human`, 'X' or 'O') and who moves first
// (`first`, 'human' or 'computer'); the side to move follows from the
// number of moves played. In a game where a side with no legal move passes
// (Othello), the pass is a move of the list (the adapter's `pass`): the
// human's is played for them, with a word in the status line, and the
// computer's comes from the service like any other move.
//
// The adapter interface, as used here:
//   id, boardEl, streams (progress events wanted), timed (a time budget applies),
//   cutWords (why a score may not be exact), settingInputs (ids of the game's own
//   settings: changing one starts a new game), notation (optional: {format, parse,
//   input: the id of the move-list field, help, placeholder, inputMode: the field's words}),
//   drawsLine (the line of best play can be drawn on the board), with streams: scoringText,
//   scoredNoun, bestLabel, progressScore(report) (optional) (the progress panel's words),
//   scoredTotal(moves, settings) (optional: how many root moves the progress panel counts, null
//   when not known ahead; the legal moves otherwise),
//   pass and mustPass(moves, settings) (optional: the move that passes, and when the side to
//   move must play it), outcomeText(d, who) and hintText(d) (optional: the result of an answer
//   in words, when the shared words of format.js do not fit the game's scores),
//   settings(), computerOptions(), hintOptions(), timeoutMs(options),
//   requestBody(moves, toMove, settings), isLegal(moves, move, settings), isOver(moves, settings),
//   legalMoves(moves, settings),
//   sideName(mark, settings), moveName(move), moveLong(move), moveShort(move),
//   pvItem(move, mark, settings), endText(outcome, winner, settings, moves), endMore,
//   render(view), showMoveMap(d, ctx, settings), resetMoveMap(), overlay(analysis, moves),
//   focus(move), bind(controller); for the game review (review.js): reviewBody(moves, settings),
//   reviewWords(score, pliesToEnd, exact), and render's `review` ({best, played}: the best moves and
//   the move played in the position shown, which is then a review's, not the game's).

import { $, el } from './dom.js';
import { postBestMove } from './client.js';
import { fillCompare, fillPv } from './analysis.js';
import { ProgressPanel } from './progress.js';
import { capitalize, hintWords, other, outcomeText } from './format.js';


/** The status line under the board, shared by the games. */
export function setStatus(parts, opts = {}) {
  const statusEl = $('status');
  statusEl.classList.toggle('error', !!opts.error);
  if (opts.outcome) statusEl.dataset.outcome = opts.outcome; else delete statusEl.dataset.outcome;
  statusEl.replaceChildren();
  if (opts.spinner) statusEl.appendChild(el('span', { class: 'spinner', 'aria-hidden': 'true' }));
  for (const p of [].concat(parts)) statusEl.append(p);
}

/** True when an answer names a move to play (a game that is over has none). */
const hasMove = (d) => d.best_move !== null && d.best_move !== undefined;

/** Time allowed beyond the engine's thinking time: the comparison searches, and waiting for a slot. */
const GRACE_MS = 20000;
const thinkTime = () => Number($('think-time').value) || 1000;

/** The options of a game the engine searches within the thinking time chosen on the page (Connect
 *  Four, Othello), for its adapter: the computer at the chosen level, the hint at full strength. */
export const timedOptions = {
  computerOptions: () => ({ level: Number($('difficulty').value) || 10, time_ms: thinkTime() }),
  hintOptions: () => ({ mistake: 0, time_ms: thinkTime() }),
  timeoutMs: (opts) => (opts.time_ms || 1000) + GRACE_MS,
};

const randomBadge = (title) => el('span', title ? { class: 'badge', title } : { class: 'badge' }, 'weaker move');

export class GameController {
  /** `shared.tally` counts results across games; `shared.checkHealth()` refreshes the service's state. */
  constructor(adapter, shared) {
    this.adapter = adapter;
    this.shared = shared;
    this.progress = adapter.streams ? new ProgressPanel(adapter) : null;
    this.movesInput = adapter.notation ? $(adapter.notation.input) : null;
    this.active = false;       // this game is the one shown
    this.settings = adapter.settings();
    this.moves = [];
    this.turn = 'idle';        // 'human' | 'computer' | 'over' | 'error'
    this.busy = false;
    this.outcome = null;       // 'human' | 'computer' | 'draw'
    this.line = null;          // the winning line, from the service
    this.hint = null;          // the suggested move
    this.request = null;       // the request in flight, to cancel it
    this.generation = 0;       // bumps whenever a request's answer stops mattering
    this.retry = null;         // repeats the failed request
    this.analysis = null;      // {d, ctx} of the last answer shown in the analysis panel
    this.showPv = false;       // the analysed line is drawn on the board
    this.movesEdited = false;  // the move list field holds the user's own text
    this.justPlayed = false;   // the last move was played since the last render
    this.reviewView = null;    // a position of a review shown on the board instead of the game's
    adapter.resetMoveMap();
    adapter.bind(this);
    this.bindInputs();
  }

  /** The game's own settings start a new game of it; Enter in its move list sets the position up. */
  bindInputs() {
    for (const id of this.adapter.settingInputs || []) {
      $(id).addEventListener('change', () => { if (this.active) this.newGame(); });
    }
    const input = this.movesInput;
    if (!input) return;
    input.addEventListener('input', () => { if (this.active) this.movesEdited = true; });
    input.addEventListener('keydown', (e) => {
      if (this.active && e.key === 'Enter') { e.preventDefault(); this.loadMoves(); }
    });
  }

  starter() { return this.settings.first === 'human' ? this.settings.human : other(this.settings.human); }
  sideAt(ply) { return ply % 2 === 0 ? this.starter() : other(this.starter()); }
  sideToMove() { return this.sideAt(this.moves.length); }
  computerMark() { return other(this.settings.human); }
  name(mark) { return this.adapter.sideName(mark, this.settings); }
  isPass(move) { return this.adapter.pass !== undefined && move === this.adapter.pass; }
  /** The side to move has no legal move and must pass (in a game with passes). */
  mustPass() { return !!this.adapter.mustPass && this.adapter.mustPass(this.moves, this.settings); }
  /** The moves played, passes not counted. */
  movesPlayed() { return this.moves.filter((m) => !this.isPass(m)).length; }

  canUndo() {
    return this.moves.some((m, ply) => this.sideAt(ply) === this.settings.human && !this.isPass(m)) ||
      (this.turn === 'over' && this.moves.length > 0);
  }

  /** Shows this game: its last analysis, and a new game. */
  activate() {
    this.active = true;
    if (this.progress) this.progress.reset();
    if (this.movesInput) {
      const n = this.adapter.notation;
      this.movesInput.placeholder = n.placeholder || '';
      this.movesInput.inputMode = n.inputMode || 'text';
      this.movesMessage(null);
    }
    if (this.analysis) {
      this.showAnalysis(this.analysis.d, this.analysis.ctx);
    } else {
      $('analysis').dataset.source = 'none';
      $('analysis-sub').textContent = 'Waiting for the service’s first answer';
    }
    this.newGame();
  }

  /** Another game is shown: this one's search stops. */
  deactivate() {
    this.active = false;
    this.leaveReview();
    this.stop();
  }

  /** The game has a move to review, and no search of the computer's is running. */
  canReview() { return this.movesPlayed() > 0 && !this.busy; }

  /** Shows a position of a review on the board: `view` is {moves, settings, ply, played, best,
   *  onLeave}; the game's board comes back with leaveReview() or the next move of the game, which
   *  call the view's onLeave. */
  showReview(view) {
    this.reviewView = view;
    this.render();
  }

  leaveReview() {
    const view = this.reviewView;
    if (!view) return;
    this.reviewView = null;
    if (view.onLeave) view.onLeave();
    this.render();
  }

  stop() {
    if (this.request) this.request.abort();
    this.request = null;
    this.generation += 1;
    this.busy = false;
    if (this.progress) this.progress.stop();
  }

  newGame() {
    this.stop();
    this.settings = this.adapter.settings();
    this.moves = [];
    this.movesEdited = false;
    this.showPv = false;
    this.resume('New game.');
  }

  /** Takes back moves until it is the human's turn again, at least one; a pass the human had to
   *  play is taken back with the move before it. */
  undo() {
    if (!this.canUndo()) return;
    this.stop();
    do { this.moves.pop(); } while (this.moves.length > 0 && (this.sideToMove() !== this.settings.human || this.mustPass()));
    this.movesEdited = false;
    this.resume('Move taken back.');
  }

  /** Continues from the current moves: the computer plays if it is its turn (or reports how the game ended). */
  resume(message) {
    this.leaveReview();
    this.outcome = null;
    this.line = null;
    this.hint = null;
    this.retry = null;
    if (this.adapter.isOver(this.moves, this.settings) || this.sideToMove() !== this.settings.human) {
      this.computerTurn();
    } else if (this.mustPass()) {
      this.humanPass(message);
    } else {
      this.turn = 'human';
      setStatus(message + ' Your move (' + this.name(this.settings.human) + ').');
      this.render();
    }
  }

  play(move) {
    this.leaveReview();
    this.moves.push(move);
    this.movesEdited = false;
    this.justPlayed = true;
  }

  /** The human has no legal move: the page says so, passes for them, and the computer moves. */
  humanPass(before) {
    this.play(this.adapter.pass);
    this.computerTurn((before ? before + ' ' : '') + 'You (' + this.name(this.settings.human) + ') had no legal move and passed.');
  }

  humanMove(move) {
    if (this.turn !== 'human' || this.busy || this.reviewView || this.isPass(move) || !this.adapter.isLegal(this.moves, move, this.settings)) return;
    this.hint = null;
    if (this.adapter.notation) this.movesMessage(null);
    this.play(move);
    this.computerTurn();
  }

  /** The progress panel shows a new search of the current position's moves. */
  startProgress(title) {
    const a = this.adapter;
    if (this.progress) this.progress.start(title, a.scoredTotal ? a.scoredTotal(this.moves, this.settings) : a.legalMoves(this.moves, this.settings).length);
  }

  post(body, options, onSlow) {
    return postBestMove(JSON.stringify(body), {
      onSlow,
      onProgress: this.progress ? (p) => this.progress.update(p) : null,
      timeoutMs: this.adapter.timeoutMs(options),
    });
  }

  body(toMove, options) {
    return Object.assign(this.adapter.requestBody(this.moves, toMove, this.settings), options);
  }

  /** Asks the service for the computer's move; `note` (what happened before, such as the human's
   *  pass) leads the status line until the move is played. */
  computerTurn(note = '') {
    const lead = note ? note + ' ' : '';
    const gen = this.generation;
    const mark = this.computerMark();
    const options = this.adapter.computerOptions();
    const snapshot = this.moves.slice();
    this.turn = 'computer';
    this.busy = true;
    this.retry = null;
    this.hint = null;
    setStatus(lead + 'Computer (' + this.name(mark) + ') to move.');
    this.startProgress('Computer is searching');
    this.render();
    const req = this.post(this.body(mark, options), options, () => {
      if (gen === this.generation && this.busy) setStatus(lead + 'Computer (' + this.name(mark) + ') is thinking…', { spinner: true });
    });
    this.request = req;
    req.promise.then((r) => {
      if (gen !== this.generation) return;
      this.request = null;
      if (!r.ok) {
        if (r.kind !== 'aborted') this.failed(r, () => this.computerTurn(), 'the position');
        return;
      }
      const d = r.data;
      this.busy = false;
      if (this.progress) this.progress.done(d);
      if (!hasMove(d)) {
        // The human's move ended the game; the service says how.
        this.finish(d.status, d.winner, d.winning_line);
        this.render();
        return;
      }
      this.showAnalysis(d, { source: 'computer', moves: snapshot, toMove: mark });
      this.play(d.best_move);
      const played = this.isPass(d.best_move)
        ? 'Computer (' + this.name(mark) + ') had no legal move and passed.'
        : 'Computer played ' + this.adapter.moveName(d.best_move) + '.';
      if (d.status_after && d.status_after !== 'in_progress') {
        this.finish(d.status_after, d.winner_after, d.winning_line_after);
        if (d.random_move) $('status').append(randomBadge());
      } else if (this.mustPass()) {
        this.humanPass(played);
        return;
      } else {
        this.turn = 'human';
        const parts = [lead + played + ' Your move (' + this.name(this.settings.human) + ').'];
        if (d.random_move) parts.push(randomBadge('The level made the computer play a move worse than the best'));
        setStatus(parts);
      }
      this.render();
    });
  }

  /** Asks the service for the human's best move, shown on the board and in the analysis panel. */
  askHint() {
    if (this.turn !== 'human' || this.busy) return;
    const gen = this.generation;
    const mark = this.settings.human;
    const options = this.adapter.hintOptions();
    const snapshot = this.moves.slice();
    this.busy = true;
    this.startProgress('Searching for your best move');
    this.render();
    const req = this.post(this.body(mark, options), options, () => {
      if (gen === this.generation && this.busy) setStatus('Looking for your best move…', { spinner: true });
    });
    this.request = req;
    req.promise.then((r) => {
      if (gen !== this.generation) return;
      this.request = null;
      this.busy = false;
      if (!r.ok) {
        if (r.kind === 'aborted') return;
        // A failed hint leaves the game as it was.
        if (this.progress) this.progress.stop();
        setStatus(r.kind === 'service' ? 'Hint failed: ' + r.error.message : r.message, { error: true });
        this.render();
        return;
      }
      const d = r.data;
      if (this.progress) this.progress.done(d);
      if (hasMove(d) && !this.isPass(d.best_move)) {
        this.hint = d.best_move;
        this.showAnalysis(d, { source: 'hint', moves: snapshot, toMove: mark });
        const words = this.adapter.hintText ? this.adapter.hintText(d) : hintWords(d, this.adapter.cutWords);
        setStatus('Hint: ' + this.adapter.moveName(d.best_move) + ' (' + words + ').');
      }
      this.render();
      if (this.hint !== null) this.adapter.focus(this.hint);
    });
  }

  finish(status, winner, line) {
    this.turn = 'over';
    this.line = Array.isArray(line) ? line : null;
    this.hint = null;
    this.outcome = status === 'draw' ? 'draw' : winner === this.settings.human ? 'human' : 'computer';
    this.shared.tally[this.outcome] += 1;
    const msg = this.adapter.endText(this.outcome, winner, this.settings, this.moves);
    setStatus([msg, el('span', { class: 'more' }, this.adapter.endMore)], { outcome: this.outcome });
  }

  failed(result, retryFn, what) {
    this.busy = false;
    this.turn = 'error';
    this.retry = retryFn;
    if (this.progress) this.progress.stop();
    let msg = result.message;
    if (result.kind === 'service') {
      msg = 'The service rejected ' + what + ': ' + result.error.message +
        (result.error.field ? ' (field: ' + result.error.field + ')' : '');
    }
    setStatus(msg, { error: true });
    if (result.kind === 'network' || result.kind === 'timeout') this.shared.checkHealth();
    this.render();
  }

  runRetry() {
    const f = this.retry;
    this.retry = null;
    if (f) f();
  }

  togglePv() {
    this.showPv = !this.showPv;
    this.render();
  }

  // --- the move list (for games with a notation) ---

  /** The message under the move list: `text`, or the game's help for its notation when null. */
  movesMessage(text, error) {
    const msg = $('moves-msg');
    msg.textContent = text === null ? this.adapter.notation.help : text;
    msg.classList.toggle('error', !!error);
  }

  /** Sets up the position of a move list: the move-list field's by default. */
  loadMoves(text = this.movesInput.value) {
    const parsed = this.adapter.notation.parse(text);
    if (!parsed.ok) {
      this.movesMessage(parsed.message, true);
      this.movesInput.focus();
      return;
    }
    this.stop();
    this.moves = parsed.moves;
    this.movesEdited = false;
    const n = this.movesPlayed();
    this.movesMessage('Position set up after ' + n + (n === 1 ? ' move.' : ' moves.'));
    this.resume('Position set up.');
  }

  async copyMoves() {
    const text = this.adapter.notation.format(this.moves);
    try {
      await navigator.clipboard.writeText(text);
    } catch (_) {
      const input = this.movesInput;
      input.value = text;
      this.movesEdited = false;
      input.select();
      try { document.execCommand('copy'); } catch (_) { /* the list stays selected for copying by hand */ }
    }
    const n = this.movesPlayed();
    this.movesMessage(text ? 'Copied ' + n + (n === 1 ? ' move: ' : ' moves: ') + text : 'No moves yet.');
  }

  // --- drawing ---

  render() {
    const a = this.adapter;
    const view = this.reviewView;
    const playable = this.turn === 'human' && !this.busy && !view;
    const line = this.line || [];
    const overlay = a.drawsLine && this.analysis ? a.overlay(this.analysis, this.moves) : null;
    a.render(view ? {
      moves: view.moves, settings: view.settings, playable, line: [], hint: null, animate: false, pv: null,
      lastComputer: null, review: { best: view.best || [], played: view.played },
    } : {
      moves: this.moves, settings: this.settings, playable, line, hint: this.hint,
      animate: this.justPlayed, pv: this.showPv ? overlay : null,
      lastComputer: this.lastComputerMove(),
    });
    this.justPlayed = false;
    const board = a.boardEl;
    if (view) board.dataset.review = String(view.ply); else delete board.dataset.review;
    board.dataset.turn = this.turn;
    board.dataset.busy = String(this.busy);
    board.dataset.moves = String(this.moves.length);
    board.dataset.hasLine = String(!view && line.length > 0);
    if (this.outcome) board.dataset.outcome = this.outcome; else delete board.dataset.outcome;
    $('hint').disabled = !playable;
    $('undo').disabled = !this.canUndo();
    $('retry').hidden = !this.retry;
    $('review-start').disabled = !this.canReview();
    if (this.movesInput && !this.movesEdited) this.movesInput.value = a.notation.format(this.moves);
    if (a.drawsLine) {
      const toggle = $('pv-toggle');
      toggle.disabled = !overlay;
      toggle.setAttribute('aria-pressed', String(this.showPv && !!overlay));
      toggle.textContent = this.showPv && overlay ? 'Hide line on board' : 'Show line on board';
    }
    const tally = this.shared.tally;
    $('tally-human').textContent = tally.human;
    $('tally-draw').textContent = tally.draw;
    $('tally-computer').textContent = tally.computer;
  }

  lastComputerMove() {
    for (let ply = this.moves.length - 1; ply >= 0; ply--) {
      if (this.sideAt(ply) !== this.settings.human) return this.moves[ply];
    }
    return null;
  }

  showAnalysis(d, ctx) {
    const a = this.adapter;
    this.analysis = { d, ctx };
    $('analysis').dataset.source = ctx.source;
    const parts = [];
    if (ctx.source === 'hint') parts.push(d.exact ? 'hint, perfect play' : 'hint, full strength');
    else if (d.max_depth) parts.push('lookahead ' + d.max_depth);
    else if (a.timed) parts.push('full lookahead');
    if (a.timed && typeof d.time_ms === 'number') parts.push(d.time_ms / 1000 + ' s');
    const list = parts.length ? ' (' + parts.join(', ') + ')' : '';
    $('analysis-sub').textContent = (ctx.source === 'hint' ? 'Your options' : 'The computer’s options') + list;
    a.showMoveMap(d, ctx, this.settings);
    const who = this.name(ctx.toMove);
    $('an-to-move').textContent = capitalize(who) + (ctx.source === 'hint' ? ' (you)' : ' (computer)');
    $('an-move-label').textContent = ctx.source === 'hint' ? 'Suggested' : 'Played';
    const mv = $('an-move');
    mv.replaceChildren(a.moveLong(d.best_move));
    if (d.random_move) mv.append(' ', randomBadge());
    $('an-outcome').textContent = a.outcomeText ? a.outcomeText(d, who) : outcomeText(d.score, d.plies_to_end, d.exact, who, a.cutWords);
    fillPv($('an-pv'), d.principal_variation, (m, k) => a.pvItem(m, k % 2 === 0 ? ctx.toMove : other(ctx.toMove), this.settings));
    fillCompare('', d, $('ab-saved'));
  }
}
