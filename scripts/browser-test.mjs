// End-to-end test of the page served at GET / by a running bestmove server.
//
// Usage: node scripts/browser-test.mjs
// Environment:
//   BASE_URL        server address, e.g. http://127.0.0.1:8080 (required)
//   PW_DIR          folder whose node_modules holds playwright-core (default target/browser-test)
//   CHROMIUM        browser executable (default /usr/bin/chromium)
//   SCREENSHOT      where to save the screenshot (default docs/screenshot.png)
//   SCREENSHOT_C4   where to save the Connect Four screenshot (default docs/screenshot-connect4.png)
//   SCREENSHOT_OTH  where to save the Othello screenshot (default docs/screenshot-othello.png)
//   SCREENSHOT_GMK  where to save the Gomoku screenshot (default docs/screenshot-gomoku.png)
//   SCREENSHOT_PHONE where to save the screenshot at phone width (default target/browser-test/screenshot-phone.png)
//   SCREENSHOT_OTH_PHONE where to save the Othello screenshot at phone width (default target/browser-test/screenshot-othello-phone.png)
//   SCREENSHOT_REVIEW_TTT, SCREENSHOT_REVIEW_C4, SCREENSHOT_REVIEW_OTH where to save the game reviews' screenshots
//                   (default docs/screenshot-review-tictactoe.png, -connect4.png, -othello.png)
//   OTH_REVIEW_MS   the Othello review's time budget (default 3000: a quick review)
//   C4_TIME_MS      the engine's thinking time per Connect Four move in the game (default 1000)
//   C4_LONG_MS      the thinking time of the long search whose progress is watched (default 5000)
//   C4_SEED         seed of the random moves played for the human (default: the clock; printed)
//   OTH_LEVEL       the computer's level in the Othello game (default 10: the engine within its thinking time)
//   OTH_TIME_MS     the thinking time per Othello move in the game (default 250: a quick game)
//   GMK_LEVEL       the computer's level in the Gomoku game (default 10)
//   GMK_TIME_MS     the thinking time per Gomoku move in the game (default 250: a quick game)
import { createRequire } from 'node:module';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const BASE_URL = (process.env.BASE_URL || '').replace(/\/$/, '');
const PW_DIR = path.resolve(process.env.PW_DIR || 'target/browser-test');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SCREENSHOT = path.resolve(process.env.SCREENSHOT || 'docs/screenshot.png');
const SCREENSHOT_C4 = path.resolve(process.env.SCREENSHOT_C4 || 'docs/screenshot-connect4.png');
const SCREENSHOT_OTH = path.resolve(process.env.SCREENSHOT_OTH || 'docs/screenshot-othello.png');
const SCREENSHOT_GMK = path.resolve(process.env.SCREENSHOT_GMK || 'docs/screenshot-gomoku.png');
const SCREENSHOT_PHONE = path.resolve(process.env.SCREENSHOT_PHONE || 'target/browser-test/screenshot-phone.png');
const SCREENSHOT_OTH_PHONE = path.resolve(process.env.SCREENSHOT_OTH_PHONE || 'target/browser-test/screenshot-othello-phone.png');
const SCREENSHOT_REVIEW = {
  tictactoe: path.resolve(process.env.SCREENSHOT_REVIEW_TTT || 'docs/screenshot-review-tictactoe.png'),
  connect4: path.resolve(process.env.SCREENSHOT_REVIEW_C4 || 'docs/screenshot-review-connect4.png'),
  othello: path.resolve(process.env.SCREENSHOT_REVIEW_OTH || 'docs/screenshot-review-othello.png'),
};
const OTH_REVIEW_MS = String(process.env.OTH_REVIEW_MS || '3000');
const C4_TIME_MS = String(process.env.C4_TIME_MS || '1000');
const C4_LONG_MS = String(process.env.C4_LONG_MS || '5000');
const C4_SEED = Number(process.env.C4_SEED || Date.now() % 1000000);
// A position out of any opening book that the engine needs several iterations for.
const C4_PROGRESS_MOVES = process.env.C4_PROGRESS_MOVES || '4453';
const OTH_LEVEL = String(process.env.OTH_LEVEL || '10');
const OTH_TIME_MS = String(process.env.OTH_TIME_MS || '250');
const GMK_LEVEL = String(process.env.GMK_LEVEL || '10');
const GMK_TIME_MS = String(process.env.GMK_TIME_MS || '250');
// Othello positions: eight moves after which black has no move and must pass (as in
// tests/api/othello.rs), and fourteen moves of a game after which black (the human) has a choice
// to be searched, past the opening book (which answers without a search to stream).
const OTH_BLACK_PASSES = 'd3c3e6d2d1e1b2c1';
const OTH_OPENING = 'c4c5b6d3e6f4c3c6d6b3f3f5f6b4';

if (!BASE_URL) {
  console.error('BASE_URL is not set');
  process.exit(2);
}

const require = createRequire(path.join(PW_DIR, 'package.json'));
const { chromium } = require('playwright-core');

const STEP_TIMEOUT = 15000;
// The human always plays the first empty cell of this list.
const PREFERENCE = [4, 0, 8, 2, 6, 1, 3, 5, 7];

let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) {
    passed += 1;
    console.log(`ok   - ${name}${detail ? ` (${detail})` : ''}`);
  } else {
    failed += 1;
    console.log(`FAIL - ${name}${detail ? ` (${detail})` : ''}`);
  }
  return ok;
}

const numberOf = (text) => {
  const digits = String(text || '').replace(/[^0-9]/g, '');
  return digits === '' ? NaN : Number(digits);
};

/** Waits until the game on the board with id `board` is the human's turn, over or failed; its turn. */
async function waitForTurn(page, board, timeout) {
  await page.waitForFunction((id) => {
    const b = document.getElementById(id);
    return b.offsetParent !== null && b.dataset.busy === 'false' && ['human', 'over', 'error'].includes(b.dataset.turn);
  }, board, { timeout });
  return page.$eval('#' + board, (b) => b.dataset.turn);
}
const waitForHumanTurnOrEnd = (page) => waitForTurn(page, 'board', STEP_TIMEOUT);

async function boardMarks(page) {
  return page.$$eval('#board .cell', (cs) => cs.map((c) => c.dataset.mark || ''));
}

/** Small seeded generator (mulberry32), so a failing game can be replayed with C4_SEED. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The data of the `answer` event (or the event named `name`) of a Server-Sent Events body (or a plain JSON body). */
function answerOf(text, name = 'answer') {
  if (/^\s*\{/.test(text)) return JSON.parse(text);
  for (const block of text.split(/\r?\n\r?\n/)) {
    const lines = block.split(/\r?\n/);
    const event = (lines.find((l) => l.startsWith('event:')) || '').slice(6).trim();
    const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n');
    if (event === name) return JSON.parse(data);
  }
  return null;
}

const C4_TIMEOUT = 40000;

/** Watches the progress panel while the game on board `boardId` searches: the number of progress
 *  events and each distinct reading of depth | best | score | positions. Returns its reader. */
async function watchProgress(page, boardId) {
  await page.evaluate((id) => {
    window.__hintProgress = { updates: 0, shown: [] };
    const board = document.getElementById(id);
    const progress = document.getElementById('progress');
    new MutationObserver(() => {
      if (board.dataset.busy !== 'true') return;
      const snap = ['pg-depth', 'pg-best', 'pg-score', 'pg-nodes'].map((x) => document.getElementById(x).textContent).join(' | ');
      if (snap.includes('…')) return;
      window.__hintProgress.updates = Math.max(window.__hintProgress.updates, Number(progress.dataset.updates));
      const shown = window.__hintProgress.shown;
      if (shown[shown.length - 1] !== snap) shown.push(snap);
    }).observe(progress, { subtree: true, childList: true, characterData: true });
  }, boardId);
  return () => page.evaluate(() => window.__hintProgress);
}

/** Asks for a hint on board `boardId` of `game` (its name in the checks), watching the progress
 *  panel: checks that the search is streamed as events; the answer and the progress seen. */
async function streamedHint(page, boardId, game) {
  const progress = await watchProgress(page, boardId);
  const answer = page.waitForResponse((r) => r.url().endsWith('/best-move') && r.request().method() === 'POST', { timeout: C4_TIMEOUT });
  await page.click('#hint');
  const res = await answer;
  check(`the ${game} search is streamed as events`, /text\/event-stream/.test(res.headers()['content-type'] || ''),
    res.headers()['content-type']);
  const hint = answerOf(await res.text());
  await waitForTurn(page, boardId, C4_TIMEOUT);
  return { hint, prog: await progress() };
}

/** The service's answers to /best-move, in the order asked (each read once its stream ends), from
 *  now until `stop()`; `settled()` waits for those asked so far. */
function recordAnswers(page) {
  const log = { answers: [], asked: 0 };
  let asking = Promise.resolve();
  const onResponse = (r) => {
    if (!r.url().endsWith('/best-move') || r.request().method() !== 'POST') return;
    log.asked += 1;
    asking = asking.then(async () => { log.answers.push(answerOf(await r.text().catch(() => '')) || {}); });
  };
  page.on('response', onResponse);
  log.settled = () => asking;
  log.stop = () => { page.off('response', onResponse); return asking; };
  return log;
}

const waitForC4HumanTurnOrEnd = (page) => waitForTurn(page, 'c4-board', C4_TIMEOUT);

/** Plays the human's move `target` (an element id) on the board with id `board`, then waits for the
 *  human's next turn (or the end) and returns it. With `keyboard` ({from, keys, what}), by keyboard:
 *  focus `from`, press the arrow `keys`, check that the focus reached the target, press Enter. */
async function humanPlays(page, board, target, keyboard) {
  const before = Number(await page.$eval('#' + board, (b) => b.dataset.moves));
  if (keyboard) {
    await page.focus('#' + keyboard.from);
    for (const key of keyboard.keys) await page.keyboard.press(key);
    const focused = await page.evaluate(() => document.activeElement && document.activeElement.id);
    check(`arrow keys move between ${keyboard.what}`, focused === target, `focused ${focused}`);
    await page.keyboard.press('Enter');
  } else {
    await page.click('#' + target);
  }
  await page.waitForFunction(([id, n]) => Number(document.getElementById(id).dataset.moves) > n, [board, before]);
  return waitForTurn(page, board, C4_TIMEOUT);
}

/** Column heights and the colour class ('x', 'o' or '') of every cell, row 0 at the top. */
async function c4State(page) {
  return page.evaluate(() => {
    const cells = [];
    for (let i = 0; i < 42; i++) {
      const d = document.getElementById('c4-cell-' + i);
      cells.push(d.classList.contains('ghost') || d.classList.contains('hint-disc') || (d.classList.contains('pv') && !d.classList.contains('played'))
        ? '' : d.classList.contains('x') ? 'x' : d.classList.contains('o') ? 'o' : '');
    }
    const heights = [0, 1, 2, 3, 4, 5, 6].map((c) => [0, 1, 2, 3, 4, 5].filter((r) => cells[r * 7 + c] !== '').length);
    return { cells, heights, moves: Number(document.getElementById('c4-board').dataset.moves) };
  });
}

/** Saves a screenshot of the page's top down to the end of the game card, the progress panel included
 *  (or down to the end of the element `bottom` names, taller than the window). */
async function screenshotGame(page, file, bottom = 'section.card') {
  mkdirSync(path.dirname(file), { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.mouse.move(0, 0);
  const viewport = page.viewportSize();
  const end = await page.$eval(bottom, (c) => c.getBoundingClientRect().bottom + window.scrollY);
  await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, Math.ceil(end) + 24) });
  await page.screenshot({ path: file, animations: 'disabled' });
  await page.setViewportSize(viewport);
  console.log(`screenshot saved to ${file}`);
}

/** Connect Four: set-up from a pasted list, progress of a long search, analysis, a whole game. */
async function connectFour(page) {
  await page.check('#game-connect4');
  await page.waitForSelector('#c4-board', { state: 'visible' });
  check('game switch shows the Connect Four board', await page.isVisible('#col-6') && !(await page.isVisible('#cell-0')));
  await page.selectOption('#difficulty', '10');
  await page.selectOption('#c4-colour', 'X');
  await page.selectOption('#think-time', C4_LONG_MS);
  await page.selectOption('#first-player', 'human');
  await waitForC4HumanTurnOrEnd(page);

  // --- a pasted move list that is not a legal game is refused and changes nothing ---
  await page.fill('#moves-input', '4444444');
  await page.click('#load-moves');
  const refused = await page.$eval('#moves-msg', (m) => ({ text: m.textContent, error: m.classList.contains('error') }));
  check('an impossible move list is refused', refused.error && /full/.test(refused.text) && (await c4State(page)).moves === 0, refused.text);

  // --- a pasted move list sets up the position ---
  await page.fill('#moves-input', C4_PROGRESS_MOVES);
  await page.click('#load-moves');
  const setUp = await c4State(page);
  const expected = Array(42).fill('');
  const heights = Array(7).fill(0);
  [...C4_PROGRESS_MOVES].forEach((ch, ply) => {
    const c = Number(ch) - 1;
    expected[(5 - heights[c]) * 7 + c] = ply % 2 === 0 ? 'x' : 'o';
    heights[c] += 1;
  });
  check('pasted move list sets up the board', setUp.moves === C4_PROGRESS_MOVES.length && setUp.cells.join(',') === expected.join(','),
    `${setUp.moves} moves, heights ${setUp.heights.join('')}`);
  check('move list field shows the position', (await page.inputValue('#moves-input')) === C4_PROGRESS_MOVES);
  const turnAfterSetUp = await waitForC4HumanTurnOrEnd(page);
  check('after the set-up it is the human\'s turn', turnAfterSetUp === 'human', `turn=${turnAfterSetUp}`);

  // --- a long search (a hint with the longest thinking time): the progress display updates while it runs ---
  // The observer sees the display whenever it changes while the search is still running (several
  // events that arrive in one network read are shown one after the other but seen together).
  await page.evaluate(() => {
    window.__progress = { shown: [], updates: 0, phases: [], settled: [] };
    const board = document.getElementById('c4-board');
    const progress = document.getElementById('progress');
    new MutationObserver(() => {
      const phases = window.__progress.phases;
      const phase = progress.dataset.phase || '';
      if (phases[phases.length - 1] !== phase) phases.push(phase);
    }).observe(progress, { attributes: true, attributeFilter: ['data-phase'] });
    const phaseLine = document.getElementById('pg-phase');
    new MutationObserver(() => {
      const settled = window.__progress.settled;
      const text = phaseLine.textContent;
      if (/settled/.test(text) && settled[settled.length - 1] !== text) settled.push(text);
    }).observe(phaseLine, { subtree: true, childList: true, characterData: true });
    const seen = () => {
      if (board.dataset.busy !== 'true') return;
      const snap = ['pg-depth', 'pg-best', 'pg-score', 'pg-nodes', 'pg-rate'].map((id) => document.getElementById(id).textContent).join(' | ');
      if (snap.includes('…')) return;
      window.__progress.updates = Math.max(window.__progress.updates, Number(progress.dataset.updates));
      const shown = window.__progress.shown;
      if (shown[shown.length - 1] !== snap) shown.push(snap);
    };
    new MutationObserver(seen).observe(progress, { subtree: true, childList: true, characterData: true });
  });
  const hintAnswer = page.waitForResponse((r) => r.url().endsWith('/best-move') && r.request().method() === 'POST', { timeout: C4_TIMEOUT });
  await page.click('#hint');
  const hintRes = await hintAnswer;
  check('the search is streamed as events', /text\/event-stream/.test(hintRes.headers()['content-type'] || ''), hintRes.headers()['content-type']);
  await page.waitForSelector('#col-scores li[data-score]', { timeout: C4_TIMEOUT });
  await waitForC4HumanTurnOrEnd(page);
  const { shown: snaps, updates: duringSearch } = await page.evaluate(() => window.__progress);
  const updates = Number(await page.$eval('#progress', (p) => p.dataset.updates));
  check('progress display updated at least twice during one search', duringSearch >= 2 && snaps.length >= 1,
    `${duringSearch} of ${updates} progress events shown before the answer; seen: ${snaps.slice(0, 4).join(' / ')}${snaps.length > 4 ? ' / …' : ''}`);
  // The deepening the events report is short; the columns are scored after it, each reported as it settles.
  const { phases } = await page.evaluate(() => window.__progress);
  check('the progress display shows the column scoring after the deepening', phases.includes('scoring') &&
    phases.indexOf('scoring') > phases.indexOf('deepening') && phases[phases.length - 1] === 'done', phases.join(' > '));
  // Each column's settled score is counted in the phase line while the columns are scored.
  const { settled } = await page.evaluate(() => window.__progress);
  const legalColumns = 7 - (await c4State(page)).heights.filter((h) => h >= 6).length;
  const counts = settled.map((t) => /^scoring columns: (\d+) of (\d+) settled$/.exec(t));
  check('the progress display counts the settled columns during the scoring', counts.length > 0 &&
    counts.every((m, k) => m && Number(m[2]) === legalColumns && Number(m[1]) >= 1 && Number(m[1]) <= legalColumns &&
      (k === 0 || Number(m[1]) > Number(counts[k - 1][1]))), settled.join(' / ') || 'no count shown');
  const rate = await page.textContent('#pg-rate');
  check('progress shows positions per second', /\d/.test(rate), rate);

  // --- the analysis panel's column scores are the service's ---
  const hint = answerOf(await hintRes.text());
  const shown = await page.$$eval('#col-scores li', (ls) => ls.map((l) => ({
    col: Number(l.dataset.col), score: l.dataset.score, exact: l.dataset.exact, plies: l.dataset.plies, text: l.textContent,
  })));
  const mismatches = [];
  for (const m of (hint && hint.moves) || []) {
    const li = shown.find((x) => x.col === m.move);
    const exact = m.exact !== false && m.plies_to_end !== null;
    const plies = exact ? String(m.plies_to_end) : '';
    const letter = !exact ? '?' : m.score > 0 ? 'W' + m.plies_to_end : m.score < 0 ? 'L' + m.plies_to_end : 'D';
    if (!li || li.score !== String(m.score) || li.exact !== String(exact) || li.plies !== plies || !li.text.includes(letter)) {
      mismatches.push(`column ${m.move + 1}: service ${JSON.stringify(m)}, page ${JSON.stringify(li)}`);
    }
  }
  check('analysis column scores match the service\'s answer', hint && hint.moves.length > 0 && mismatches.length === 0,
    mismatches.join('; ') || shown.map((x) => x.text).join(' '));
  const hinted = await page.$$eval('#c4-board .c4-col.hint', (cs) => cs.map((c) => Number(c.dataset.col)));
  check('hint highlights the service\'s best column', hinted.length === 1 && hinted[0] === hint.best_move,
    `page ${hinted.join(',')}, service ${hint && hint.best_move}`);
  const engineNodes = numberOf(await page.textContent('#en-nodes'));
  check('analysis shows the three searches', numberOf(await page.textContent('#mm-nodes')) > 0 &&
    numberOf(await page.textContent('#ab-nodes')) > 0 && engineNodes === hint.engine.nodes, `engine ${engineNodes}`);
  await page.click('#pv-toggle');
  const pvShown = await page.$$eval('#c4-board .disc.pv', (ds) => ds.length);
  check('principal variation drawn on the board', pvShown === Math.min(hint.principal_variation.length, 42 - setUp.moves), `${pvShown} pieces`);
  await page.click('#pv-toggle');

  // --- a whole game: random legal moves for the human against the perfect engine ---
  await page.selectOption('#think-time', C4_TIME_MS);
  await page.click('#new-game');
  let turn = await waitForC4HumanTurnOrEnd(page);
  const random = rng(C4_SEED);
  console.log(`#    Connect Four game with C4_SEED=${C4_SEED}`);
  let humanMoves = 0;
  let played = '';
  while (turn === 'human' && humanMoves < 21) {
    const st = await c4State(page);
    const legal = [0, 1, 2, 3, 4, 5, 6].filter((c) => st.heights[c] < 6);
    const col = legal[Math.floor(random() * legal.length)];
    // The first move by keyboard: focus a column, walk to the chosen one with the arrows, press Enter.
    const keyboard = humanMoves === 0 && { from: 'col-0', keys: Array(col).fill('ArrowRight'), what: 'columns' };
    turn = await humanPlays(page, 'c4-board', `col-${col}`, keyboard);
    humanMoves += 1;
    played = await page.inputValue('#moves-input');
  }
  const status = await page.$eval('#status', (s) => ({ text: s.textContent, outcome: s.dataset.outcome || '' }));
  check('Connect Four game finished', turn === 'over', `turn=${turn}; moves ${played}; status="${status.text}"`);
  check('the service won the Connect Four game', status.outcome === 'computer', `outcome=${status.outcome}; moves ${played}`);
  const wins = await page.$$eval('#c4-board .disc.win', (ds) => ds.length);
  check('the winning four is marked', wins === 4, `${wins} pieces`);
  const last = await page.$$eval('#c4-board .disc.last', (ds) => ds.length);
  check('the last move is marked', last === 1, `${last} pieces`);
  check('move list is in digit notation', /^[1-7]+$/.test(played) && played.length === Number(await page.$eval('#c4-board', (b) => b.dataset.moves)), played);

  await screenshotGame(page, SCREENSHOT_C4);

  // --- undo takes the position back to the human's turn ---
  await page.click('#undo');
  turn = await waitForC4HumanTurnOrEnd(page);
  const after = await c4State(page);
  check('undo takes back the last moves', turn === 'human' && after.moves < played.length && after.moves % 2 === 0,
    `turn=${turn}, ${after.moves} moves`);
  return played;
}

const waitForOthHumanTurnOrEnd = (page) => waitForTurn(page, 'oth-board', C4_TIMEOUT);

/** The Othello board as the page shows it: each square's disc ('x', 'o' or ''), the squares marked as
 *  legal, the disc counts and the number of moves (passes included). */
async function othState(page) {
  return page.evaluate(() => {
    const sq = [...document.querySelectorAll('#oth-board .oth-sq')];
    const stone = (b) => b.querySelector('.stone');
    return {
      cells: sq.map((b) => (stone(b).classList.contains('black') ? 'x' : stone(b).classList.contains('white') ? 'o' : '')),
      legal: sq.filter((b) => b.classList.contains('legal')).map((b) => b.dataset.square),
      black: Number(document.getElementById('oth-black').textContent),
      white: Number(document.getElementById('oth-white').textContent),
      moves: Number(document.getElementById('oth-board').dataset.moves),
    };
  });
}

/** The scored squares of the analysis map: square -> the label shown and the score it carries. */
async function othMap(page) {
  return page.$$eval('#oth-scores li.scored', (ls) => ls.map((l) => ({
    square: l.dataset.square, text: l.textContent, score: l.dataset.score, exact: l.dataset.exact,
    evaluation: l.dataset.evaluation || null, chosen: l.classList.contains('chosen'), classList: [...l.classList],
  })));
}

/** The squares of an answer's moves that the analysis map does not show with the answer's score. */
function othMapMismatches(answer, map) {
  const bad = [];
  const scored = (answer.moves || []).filter((m) => m.move !== 'pass');
  for (const m of scored) {
    const li = map.find((x) => x.square === m.move);
    const exact = m.exact !== false;
    // A move left with an upper bound reads as one: "\u2264+60".
    const number = m.bound === 'upper' ? /^\u2264[+\u2212]?\d+$/ : /^([+\u2212]?\d+(\.\d)?)$/;
    const ok = li && li.score === String(m.score) && li.exact === String(exact) && number.test(li.text) &&
      li.evaluation === (typeof m.evaluation === 'number' ? String(m.evaluation) : null) &&
      li.classList.includes('est') === (!exact && typeof m.evaluation === 'number');
    if (!ok) bad.push(`${m.move}: service ${JSON.stringify(m)}, page ${JSON.stringify(li)}`);
    // The move answered is proven or estimated, never one only bounded.
    if (m.bound === 'upper' && m.move === answer.best_move) bad.push(`${m.move}: answered with only a bound`);
  }
  if (map.length !== scored.length) bad.push(`${map.length} squares scored on the page, ${scored.length} in the answer`);
  return bad;
}

/** Othello: a refused list, both sides' passes, a hint's progress and analysis, a whole game to its end. */
async function othello(page) {
  await page.check('#game-othello');
  await page.waitForSelector('#oth-board', { state: 'visible' });
  check('game switch shows the Othello board', await page.isVisible('#sq-h8') && !(await page.isVisible('#col-6')) &&
    !(await page.isVisible('#cell-0')) && await page.isVisible('#progress') && await page.isVisible('#moves-input'));
  await page.selectOption('#difficulty', '10');
  await page.selectOption('#think-time', '1000');
  await page.selectOption('#first-player', 'human');
  let turn = await waitForOthHumanTurnOrEnd(page);
  const start = await othState(page);
  check('the Othello game starts with four discs and black\'s four squares marked', turn === 'human' && start.black === 2 &&
    start.white === 2 && start.legal.join(',') === 'd3,c4,f5,e6', `${start.legal.join(',')}; ${start.black}-${start.white}`);
  const placeholder = await page.getAttribute('#moves-input', 'placeholder');
  check('the move list speaks the Othello notation', /f5/.test(placeholder) && /a1 to h8/.test(await page.textContent('#moves-msg')),
    `${placeholder}; ${await page.textContent('#moves-msg')}`);

  // Every status line shown, to see the passes said.
  await page.evaluate(() => {
    window.__statuses = [];
    const st = document.getElementById('status');
    new MutationObserver(() => {
      const t = st.textContent;
      if (window.__statuses[window.__statuses.length - 1] !== t) window.__statuses.push(t);
    }).observe(st, { subtree: true, childList: true, characterData: true });
  });
  const statuses = () => page.evaluate(() => window.__statuses.splice(0));

  // --- a move list that is not a legal game is refused ---
  await page.fill('#moves-input', 'f5f5');
  await page.click('#load-moves');
  const refused = await page.$eval('#moves-msg', (m) => ({ text: m.textContent, error: m.classList.contains('error') }));
  check('an impossible Othello move list is refused', refused.error && /Move 2: f5 is already taken/.test(refused.text) &&
    (await othState(page)).moves === 0, refused.text);

  // --- the human (black) has no move: the page says so, passes, and the computer plays ---
  const requests = [];
  const onRequest = (r) => { if (r.url().endsWith('/best-move') && r.method() === 'POST') requests.push(r.postDataJSON()); };
  page.on('request', onRequest);
  await page.fill('#moves-input', OTH_BLACK_PASSES.toUpperCase());
  await page.click('#load-moves');
  turn = await waitForOthHumanTurnOrEnd(page);
  let said = (await statuses()).join(' / ');
  let st = await othState(page);
  const asked = requests[requests.length - 1] || {};
  check('the human\'s pass is said and played', turn === 'human' && /You \(black\) had no legal move and passed\./.test(said) &&
    st.moves === 10 && Array.isArray(asked.moves) && asked.moves[8] === 'pass', `${said}; ${st.moves} moves; asked ${JSON.stringify(asked.moves)}`);
  check('the move list leaves the pass out', /^([a-h][1-8]){9}$/.test(await page.inputValue('#moves-input')), await page.inputValue('#moves-input'));
  // Undo takes back the computer's move, the forced pass and the moves before it, to a turn where
  // the human has a move: black's b2, six moves in.
  await page.click('#undo');
  turn = await waitForOthHumanTurnOrEnd(page);
  st = await othState(page);
  said = (await statuses()).join(' / ');
  check('undo takes back a forced pass with the moves before it', turn === 'human' && st.moves === 6 && st.legal.includes('b2') &&
    !/passed/.test(said), `${st.moves} moves; ${said}`);

  // --- the computer (black) has no move: the service answers "pass" and the page shows it (at level 1) ---
  await page.selectOption('#difficulty', '1');
  await page.selectOption('#first-player', 'computer');
  await waitForOthHumanTurnOrEnd(page);
  await statuses();
  const passAnswer = page.waitForResponse((r) => r.url().endsWith('/best-move') && r.request().method() === 'POST', { timeout: C4_TIMEOUT });
  await page.fill('#moves-input', OTH_BLACK_PASSES);
  await page.click('#load-moves');
  const passed = answerOf(await (await passAnswer).text());
  turn = await waitForOthHumanTurnOrEnd(page);
  said = (await statuses()).join(' / ');
  st = await othState(page);
  const played = await page.textContent('#an-move');
  const levelAsked = requests[requests.length - 1] || {};
  check('the level is asked for and its lookahead shown', levelAsked.level === 1 && passed && passed.max_depth === 1 &&
    /lookahead 1\b/.test(await page.textContent('#analysis-sub')), `level ${levelAsked.level}; ${await page.textContent('#analysis-sub')}`);
  check('the computer\'s pass is shown', passed && passed.best_move === 'pass' && turn === 'human' && st.moves === 9 &&
    /Computer \(black\) had no legal move and passed\. Your move \(white\)\./.test(said) && /pass/.test(played) &&
    /no legal square and passes/.test(await page.textContent('#oth-map-note')) && st.legal.length > 0,
    `answer ${passed && passed.best_move}; ${said}; played "${played}"; ${st.moves} moves`);
  page.off('request', onRequest);

  // --- a hint: the search's progress is streamed, and every legal square gets its score ---
  await page.selectOption('#difficulty', '10');
  await page.selectOption('#first-player', 'human');
  await waitForOthHumanTurnOrEnd(page);
  await page.fill('#moves-input', OTH_OPENING);
  await page.press('#moves-input', 'Enter');
  turn = await waitForOthHumanTurnOrEnd(page);
  st = await othState(page);
  check('a pasted Othello list sets up the position (Enter in the field)', turn === 'human' && st.moves === 14 && st.black + st.white === 18,
    `${st.moves} moves, ${st.black}-${st.white}`);
  const { hint, prog } = await streamedHint(page, 'oth-board', 'Othello');
  check('the Othello progress display updated during the search', prog.updates >= 2 && prog.shown.length >= 1 &&
    prog.shown.every((t) => /^\d+ \| [a-h][1-8] \|/.test(t)), `${prog.updates} events; ${prog.shown.slice(0, 3).join(' / ')}`);
  check('the progress panel names the best move', (await page.textContent('#pg-best-label')) === 'Best move' &&
    /^[a-h][1-8]$/.test(await page.textContent('#pg-best')), await page.textContent('#pg-best'));
  const hintMap = await othMap(page);
  const hintBad = othMapMismatches(hint, hintMap);
  check('the analysis scores every legal square as the service does', hint && hint.moves.length === st.legal.length &&
    hint.moves.every((m) => st.legal.includes(m.move)) && hintBad.length === 0, hintBad.join('; ') || hintMap.map((x) => `${x.square} ${x.text}`).join(', '));
  const hinted = await page.$$eval('#oth-board .oth-sq.hint', (b) => b.map((x) => x.dataset.square));
  check('the hint marks the service\'s best square', hinted.length === 1 && hinted[0] === hint.best_move &&
    hintMap.some((x) => x.chosen && x.square === hint.best_move), `page ${hinted.join(',')}, service ${hint && hint.best_move}`);
  const mmNodes = numberOf(await page.textContent('#mm-nodes'));
  const abNodes = numberOf(await page.textContent('#ab-nodes'));
  const enNodes = numberOf(await page.textContent('#en-nodes'));
  check('the Othello analysis shows the three searches', mmNodes === hint.minimax.nodes && abNodes === hint.alphabeta.nodes &&
    enNodes === hint.engine.nodes && abNodes > 0 && mmNodes >= abNodes && /At depth \d+, alpha-beta/.test(await page.textContent('#ab-saved')),
    `minimax ${mmNodes}, alpha-beta ${abNodes}, engine ${enNodes}`);

  // --- a whole game: random legal squares for the human against the service, with a short thinking time ---
  await page.selectOption('#difficulty', OTH_LEVEL);
  await page.selectOption('#think-time', OTH_TIME_MS);
  await page.click('#new-game');
  turn = await waitForOthHumanTurnOrEnd(page);
  await statuses();
  // The service's answers, in the order asked (each read once its stream ends).
  const log = recordAnswers(page);
  const answers = log.answers;
  const random = rng(C4_SEED + 17);
  const unscored = [];
  // The screenshot shows the game card once the computer's options are solved exactly (or at the end).
  let shot = false;
  let humanMoves = 0;
  let checkedAnswers = 0;
  while (turn === 'human' && humanMoves < 40) {
    st = await othState(page);
    // The computer's answer before this turn is in the analysis: a score on each of its legal squares.
    await log.settled();
    if (log.asked > 0 && answers.length > checkedAnswers) {
      const last = answers[answers.length - 1];
      const bad = othMapMismatches(last, await othMap(page));
      if (bad.length) unscored.push(`after ${st.moves} moves: ${bad.join('; ')}`);
      checkedAnswers = answers.length;
      if (!shot && last.exact && (last.moves || []).length >= 4) {
        shot = true;
        await screenshotGame(page, SCREENSHOT_OTH);
      }
    }
    const square = st.legal[Math.floor(random() * st.legal.length)];
    // The first move by keyboard: from a1 to the square with the arrows, then Enter.
    const keys = [...Array('abcdefgh'.indexOf(square[0])).fill('ArrowRight'), ...Array(Number(square[1]) - 1).fill('ArrowDown')];
    turn = await humanPlays(page, 'oth-board', `sq-${square}`, humanMoves === 0 && { from: 'sq-a1', keys, what: 'Othello squares' });
    humanMoves += 1;
  }
  await log.stop();
  st = await othState(page);
  const moveList = await page.inputValue('#moves-input');
  const status = await page.$eval('#status', (s) => ({ text: s.textContent, outcome: s.dataset.outcome || '' }));
  const passes = (await statuses()).filter((t) => /had no legal move and passed/.test(t));
  check('Othello game finished', turn === 'over' && ['human', 'computer', 'draw'].includes(status.outcome),
    `turn=${turn}; ${humanMoves} human moves; status="${status.text}"`);
  check('the analysis scored every legal square of every answer', checkedAnswers > 10 && unscored.length === 0,
    unscored.slice(0, 3).join(' | ') || `${checkedAnswers} answers`);
  const counts = /(\d+) to (\d+)|(\d+) discs each/.exec(status.text);
  const [hi, lo] = [Math.max(st.black, st.white), Math.min(st.black, st.white)];
  check('the end says the disc count shown', !!counts && (counts[3] ? Number(counts[3]) === st.black && st.black === st.white
    : Number(counts[1]) === hi && Number(counts[2]) === lo), `${status.text}; black ${st.black}, white ${st.white}`);
  const end = answers[answers.length - 1] || {};
  const endDiscs = end.best_move === null ? end.discs : end.discs_after;
  check('the disc count is the service\'s', endDiscs && endDiscs.X === st.black && endDiscs.O === st.white,
    `service ${JSON.stringify(endDiscs)}, page ${st.black}-${st.white}`);
  const squaresPlayed = st.cells.filter((c) => c !== '').length - 4;
  const passCount = st.moves - squaresPlayed;
  check('the move list is in square notation, passes left out', new RegExp(`^([a-h][1-8]){${squaresPlayed}}$`).test(moveList),
    `${moveList} (${st.moves} moves)`);
  check('each pass of the game was said', passCount === 0 || passes.length > 0,
    `${passCount} passes${passes.length ? `; said: ${passes[0]}${passes.length > 1 ? ' / …' : ''}` : ''}`);
  console.log(`#    Othello game: ${humanMoves} human moves, ${passCount} passes; ${status.text}`);
  const last = await page.$$eval('#oth-board .oth-sq.last', (b) => b.length);
  check('the last Othello move is marked', last === 1, `${last} squares`);

  if (!shot) await screenshotGame(page, SCREENSHOT_OTH);

  // --- undo gives the turn back to the human ---
  await page.click('#undo');
  turn = await waitForOthHumanTurnOrEnd(page);
  const undone = await othState(page);
  check('undo takes back the last Othello moves', turn === 'human' && undone.moves < st.moves && undone.legal.length > 0,
    `turn=${turn}, ${st.moves} -> ${undone.moves} moves`);
  return moveList;
}

const BOARD_OF = { tictactoe: 'board', connect4: 'c4-board', othello: 'oth-board' };
/** The mark of a judgement in the review's move list, as the service's ply says. */
const glyphOf = (p) => (p.forced ? '\u25a1' : { inaccuracy: '?!', mistake: '?', blunder: '??' }[p.judgement] || '');
const markOf = (p) => (p.forced ? 'j-forced' : p.judgement ? 'j-' + p.judgement : 'j-none');

/** The position the board shows, as the game's pieces counted, and its review marks. */
async function reviewBoard(page, game) {
  return page.evaluate((game) => {
    const ids = (sel, attr) => [...document.querySelectorAll(sel)].map((e) => e.dataset[attr]);
    if (game === 'tictactoe') {
      return { pieces: [...document.querySelectorAll('#board .cell')].filter((c) => c.dataset.mark).length,
        best: ids('#board .cell.rv-best', 'index').map(Number), played: ids('#board .cell.rv-played', 'index').map(Number) };
    }
    if (game === 'connect4') {
      return { pieces: [...document.querySelectorAll('#c4-board .disc')].filter((d) => /\b(x|o)\b/.test(d.className) && !d.classList.contains('rv-drop')).length,
        best: ids('#c4-board .c4-col.rv-best', 'col').map(Number), played: ids('#c4-board .c4-col.rv-played', 'col').map(Number) };
    }
    return { pieces: document.querySelectorAll('#oth-board .stone.black, #oth-board .stone.white').length,
      best: ids('#oth-board .oth-sq.rv-best', 'square'), played: ids('#oth-board .oth-sq.rv-played', 'square') };
  }, game);
}

/** Reviews the game on the board of `game` (already played or set up): the review is streamed, the
 *  graph, the judgements and the tally are the service's, and choosing a move shows its position. */
async function reviewGame(page, game, { time, streamed } = {}) {
  const board = BOARD_OF[game];
  const movesNow = Number(await page.$eval('#' + board, (b) => b.dataset.moves));
  if (time) await page.selectOption('#review-time', time);
  await page.evaluate(() => {
    window.__review = [];
    const root = document.getElementById('review');
    new MutationObserver(() => {
      const seen = window.__review;
      if (root.dataset.state === 'running' && seen[seen.length - 1] !== root.dataset.plies) seen.push(root.dataset.plies);
    }).observe(root, { attributes: true, attributeFilter: ['data-plies', 'data-state'] });
  });
  const asked = page.waitForRequest((r) => r.url().endsWith('/review') && r.method() === 'POST');
  const answered = page.waitForResponse((r) => r.url().endsWith('/review') && r.request().method() === 'POST', { timeout: C4_TIMEOUT });
  check(`the Review button is enabled after the ${game} game`, !(await page.isDisabled('#review-start')));
  await page.click('#review-start');
  const body = (await asked).postDataJSON();
  const res = await answered;
  check(`the ${game} review is streamed as events`, /text\/event-stream/.test(res.headers()['content-type'] || ''), res.headers()['content-type']);
  const d = answerOf(await res.text(), 'review');
  await page.waitForFunction(() => ['done', 'error'].includes(document.getElementById('review').dataset.state), null, { timeout: C4_TIMEOUT });
  const state = await page.$eval('#review', (r) => ({ state: r.dataset.state, plies: Number(r.dataset.plies) }));
  const status = await page.textContent('#review-status');
  check(`the ${game} review finished`, !!d && state.state === 'done' && d.plies.length === state.plies && d.plies.length > 0,
    `${status}; asked ${JSON.stringify(body).slice(0, 120)}`);
  if (!d || state.state !== 'done') return;
  const seen = await page.evaluate(() => window.__review);
  if (streamed) {
    check(`the ${game} review filled in ply by ply`, seen.filter((n) => Number(n) > 0 && Number(n) < d.plies.length).length >= 1,
      `plies shown while running: ${seen.join(', ')}`);
  }
  // The graph: a point before the first move and one after each ply, exact ones solid.
  const graph = await page.evaluate(() => ({
    points: document.querySelectorAll('#review-graph circle.pt').length,
    exact: document.querySelectorAll('#review-graph circle.pt.exact').length,
    bands: document.querySelectorAll('#review-graph rect.g-exact').length,
    lines: document.querySelectorAll('#review-graph path.g-line').length,
    turns: document.querySelectorAll('#review-graph line.g-turn').length,
    label: document.getElementById('review-graph').getAttribute('aria-label'),
  }));
  const exactPlies = d.plies.filter((p) => p.exact).length;
  const passes = d.plies.length < movesNow ? ` (${movesNow - d.plies.length} passes)` : '';
  check(`the ${game} review's graph has a point per ply, exact ones solid`, graph.points === d.plies.length + 1 && graph.lines >= 1 &&
    graph.exact === exactPlies + (d.plies[0].exact ? 1 : 0) && (exactPlies === 0) === (graph.bands === 0) &&
    graph.turns === d.turning_points.length && /winning chance/.test(graph.label),
    `${graph.points} points, ${graph.exact} exact, ${graph.bands} exact stretches, ${graph.turns} turning points; ${d.plies.length} plies${passes}, ${exactPlies} exact`);
  // The move list: each ply marked with the service's judgement, proven ones as such.
  const marks = await page.$$eval('#review-moves button.rv-ply', (bs) => bs.map((b) => ({
    ply: Number(b.dataset.ply), cls: [...b.classList], glyph: (b.querySelector('.gl') || { textContent: '' }).textContent,
    label: b.getAttribute('aria-label'),
  })));
  const wrong = [];
  for (const p of d.plies) {
    const m = marks.find((x) => x.ply === p.ply);
    if (!m || !m.cls.includes(markOf(p)) || m.glyph !== glyphOf(p) || m.cls.includes('proven') !== !!p.proven ||
      (p.judgement && !m.label.includes(p.forced ? 'only move' : p.judgement === 'best' || p.judgement === 'good' ? p.judgement + ' move' : p.judgement))) {
      wrong.push(`ply ${p.ply}: service ${p.judgement}${p.proven ? ' proven' : ''}, page ${m ? m.cls.join(' ') + ' ' + m.glyph : 'none'}`);
    }
  }
  const counted = ['inaccuracy', 'mistake', 'blunder'].map((j) => `${d.plies.filter((p) => p.judgement === j).length} ${j}`).join(', ');
  check(`every ${game} move is marked with its judgement`, marks.length === d.plies.length && wrong.length === 0,
    wrong.slice(0, 3).join('; ') || `${marks.length} moves; ${counted}`);
  // Each side's tally and accuracy.
  const sides = await page.$$eval('#review-sides tr', (rs) => rs.map((r) => ({
    side: r.dataset.side, cells: [...r.querySelectorAll('td')].map((c) => c.textContent),
  })));
  const badSides = ['X', 'O'].filter((side) => {
    const s = d.sides[side];
    const row = sides.find((r) => r.side === side);
    const acc = typeof s.accuracy === 'number' ? s.accuracy.toFixed(1) + '%' : '—';
    return !row || row.cells.join(' ') !== [acc, s.best, s.good, s.inaccuracy, s.mistake, s.blunder].join(' ');
  });
  check(`the ${game} review's tally is the service's`, badSides.length === 0, sides.map((r) => `${r.side}: ${r.cells.join(' ')}`).join('; '));
  // The move shown at the end, then a click on a move: its position, its best moves and the move played.
  const shown = await page.$eval('#' + board, (b) => b.dataset.review || '');
  check(`the ${game} review shows a move's position when it ends`, shown !== '' && (await page.textContent('#review-detail-head')).startsWith('Move ' + shown),
    `move ${shown}: ${await page.textContent('#review-detail-head')}`);
  const pick = d.plies.find((p) => ['blunder', 'mistake', 'inaccuracy'].includes(p.judgement)) || d.plies[Math.floor(d.plies.length / 2)];
  await page.click(`#review-moves button[data-ply="${pick.ply}"]`);
  await page.waitForFunction(([id, n]) => document.getElementById(id).dataset.review === String(n), [board, pick.ply]);
  const pos = await reviewBoard(page, game);
  const playedMoves = game === 'othello' ? body.moves.slice(0, pick.ply - 1).filter((m) => m !== 'pass').length + 4 : pick.ply - 1;
  const bestWanted = [...pick.best_moves].map(String).sort().join(',');
  const playedMove = game === 'connect4' ? Number(body.moves[pick.ply - 1]) - 1 : body.moves[pick.ply - 1];
  check(`clicking ${game} move ${pick.ply} shows the position before it, its best moves and the move played`,
    pos.pieces === playedMoves && pos.best.map(String).sort().join(',') === bestWanted && pos.played.length === 1 && pos.played[0] === playedMove &&
    (await page.$eval(`#review-moves button[data-ply="${pick.ply}"]`, (b) => b.getAttribute('aria-current'))) === 'true',
    `${pos.pieces} pieces (want ${playedMoves}); best ${pos.best.join(',')} (service ${bestWanted}); played ${pos.played.join(',')} (want ${playedMove}); ${pick.judgement}`);
  // The arrow keys step through the moves (back from the last one).
  const last = pick.ply === d.plies[d.plies.length - 1].ply;
  await page.focus(`#review-moves button[data-ply="${pick.ply}"]`);
  await page.keyboard.press(last ? 'ArrowLeft' : 'ArrowRight');
  const next = Number(await page.$eval('#' + board, (b) => b.dataset.review));
  const focused = await page.evaluate(() => document.activeElement && document.activeElement.dataset.ply);
  check(`the arrow keys step to the ${last ? 'previous' : 'next'} ${game} move`, (last ? next < pick.ply && next >= 1 : next > pick.ply && next <= movesNow) &&
    focused === String(next), `move ${pick.ply} -> ${next}, focus on ${focused}`);
  await page.keyboard.press(last ? 'ArrowRight' : 'ArrowLeft');
  await page.waitForFunction(([id, n]) => document.getElementById(id).dataset.review === String(n), [board, pick.ply]);
  await screenshotGame(page, SCREENSHOT_REVIEW[game], '#review');
  // Back to the game: the board shows the game again.
  await page.click('#review-back');
  const back = await page.$eval('#' + board, (b) => ({ review: b.dataset.review || '', moves: Number(b.dataset.moves) }));
  check(`"Back to the game" shows the ${game} game again`, back.review === '' && back.moves === movesNow && (await reviewBoard(page, game)).best.length === 0,
    JSON.stringify(back));
}

/** The game review of each game: a tic-tac-toe game played to its end with weak moves for the human, and
 *  the whole Connect Four and Othello games played before, pasted back into their move lists. */
async function reviews(page, c4Moves, othMoves) {
  // Tic-tac-toe: the human (X) plays the edges first against the perfect computer.
  await page.check('#game-tictactoe');
  await page.selectOption('#difficulty', '10');
  await page.selectOption('#human-mark', 'X');
  await page.selectOption('#first-player', 'human');
  await page.click('#new-game');
  let turn = await waitForHumanTurnOrEnd(page);
  check('there is nothing to review before the first move', await page.isDisabled('#review-start'));
  const weak = [1, 3, 5, 7, 0, 2, 6, 8, 4];
  while (turn === 'human') {
    const marks = await boardMarks(page);
    turn = await humanPlays(page, 'board', `cell-${weak.find((i) => marks[i] === '')}`);
  }
  await reviewGame(page, 'tictactoe');

  // Connect Four and Othello: the games played before, set up again from their move lists; the Othello
  // review within a short budget, watched filling in ply by ply.
  const pasted = [['connect4', 'Connect Four', c4Moves, { time: '10000' }], ['othello', 'Othello', othMoves, { time: OTH_REVIEW_MS, streamed: true }]];
  for (const [game, name, moves, opts] of pasted) {
    await page.check(`#game-${game}`);
    await waitForTurn(page, BOARD_OF[game], C4_TIMEOUT);
    await page.fill('#moves-input', moves);
    await page.click('#load-moves');
    turn = await waitForTurn(page, BOARD_OF[game], C4_TIMEOUT);
    check(`the ${name} game set up from its move list is over`, turn === 'over', `turn=${turn}; ${moves}`);
    await reviewGame(page, game, opts);
  }
}

const waitForGmkHumanTurnOrEnd = (page) => waitForTurn(page, 'gmk-board', C4_TIMEOUT);

/** The Gomoku board as the page shows it: each point's name and stone ('x', 'o' or ''), the points
 *  marked as the last move and as the winning line, and the number of moves. */
async function gmkState(page) {
  return page.evaluate(() => {
    const pts = [...document.querySelectorAll('#gmk-board .gmk-pt')];
    const stone = (b) => b.querySelector('.stone');
    const marked = (cls) => pts.filter((b) => b.classList.contains(cls)).map((b) => b.dataset.square);
    return {
      names: pts.map((b) => b.dataset.square),
      cells: pts.map((b) => (stone(b).classList.contains('black') ? 'x' : stone(b).classList.contains('white') ? 'o' : '')),
      last: marked('last'),
      win: marked('win'),
      moves: Number(document.getElementById('gmk-board').dataset.moves),
    };
  });
}

/** The squares of an answer's candidates that the heat map does not show with the answer's score,
 *  or a chosen square that is not the answer's move. */
async function gmkMapMismatches(page, answer) {
  const map = await page.$$eval('#gmk-heat li.scored', (ls) => ls.map((l) => ({
    square: l.dataset.square, score: l.dataset.score, exact: l.dataset.exact, heat: Number(l.dataset.heat),
    chosen: l.classList.contains('chosen'), text: l.textContent,
  })));
  const bad = [];
  const cands = (answer.moves || []).filter((m) => typeof m.move === 'string');
  for (const m of cands) {
    const li = map.find((x) => x.square === m.move);
    if (!li || li.score !== String(m.score) || !(li.heat >= 0 && li.heat <= 1) || li.text === '') {
      bad.push(`${m.move}: service ${JSON.stringify(m)}, page ${JSON.stringify(li)}`);
    }
  }
  if (map.length !== cands.length) bad.push(`${map.length} squares scored on the page, ${cands.length} in the answer`);
  const chosen = map.filter((x) => x.chosen).map((x) => x.square);
  if (cands.some((m) => m.move === answer.best_move) && chosen.join() !== answer.best_move) {
    bad.push(`chosen ${chosen.join()} but the answer plays ${answer.best_move}`);
  }
  return bad;
}

/** Gomoku: the 15x15 board, the size asked for, a refused list, a hint's progress and heat map, a
 *  whole game to its five. */
async function gomoku(page) {
  await page.check('#game-gomoku');
  await page.waitForSelector('#gmk-board', { state: 'visible' });
  let st = await gmkState(page);
  check('game switch shows the Gomoku board, 15x15', st.names.length === 225 && st.names[0] === 'a15' && st.names[224] === 'o1' &&
    await page.isVisible('#gp-h8') && !(await page.isVisible('#sq-h8')) && await page.isVisible('#progress') &&
    await page.isVisible('#gmk-size') && await page.isVisible('#gmk-rule'), `${st.names.length} points`);
  await page.selectOption('#difficulty', '10');
  await page.selectOption('#think-time', '1000');
  await page.selectOption('#first-player', 'human');
  let turn = await waitForGmkHumanTurnOrEnd(page);
  const placeholder = await page.getAttribute('#moves-input', 'placeholder');
  check('the move list speaks the Gomoku notation', /h8/.test(placeholder) && /column letter/.test(await page.textContent('#moves-msg')),
    `${placeholder}; ${await page.textContent('#moves-msg')}`);

  // --- the size and rule are asked for: the computer opens a 9x9 standard game ---
  const requests = [];
  const onRequest = (r) => { if (r.url().endsWith('/best-move') && r.method() === 'POST') requests.push(r.postDataJSON()); };
  page.on('request', onRequest);
  await page.selectOption('#gmk-rule', 'standard');
  await page.selectOption('#gmk-size', '9');
  await page.selectOption('#first-player', 'computer');
  turn = await waitForGmkHumanTurnOrEnd(page);
  st = await gmkState(page);
  const asked = requests[requests.length - 1] || {};
  check('a 9x9 standard game is drawn and asked for', turn === 'human' && st.names.length === 81 && st.names[0] === 'a9' &&
    asked.game === 'gomoku' && asked.size === 9 && asked.rule === 'standard' && st.moves === 1 && st.cells.filter(Boolean).length === 1,
    `${st.names.length} points, asked ${JSON.stringify(asked)}`);
  page.off('request', onRequest);
  await page.selectOption('#gmk-size', '15');
  await page.selectOption('#gmk-rule', 'freestyle');
  await page.selectOption('#first-player', 'human');
  turn = await waitForGmkHumanTurnOrEnd(page);

  // --- a move list that is not a game is refused ---
  await page.fill('#moves-input', 'h8 h8');
  await page.click('#load-moves');
  const refused = await page.$eval('#moves-msg', (m) => ({ text: m.textContent, error: m.classList.contains('error') }));
  check('an impossible Gomoku move list is refused', refused.error && /Move 2: h8 is already taken/.test(refused.text) &&
    (await gmkState(page)).moves === 0, refused.text);

  // --- a pasted list, then a hint: the search's progress is streamed, the candidates make a heat map ---
  await page.fill('#moves-input', 'H8 i9 h9 I10');
  await page.press('#moves-input', 'Enter');
  turn = await waitForGmkHumanTurnOrEnd(page);
  st = await gmkState(page);
  check('a pasted Gomoku list sets up the position (Enter in the field)', turn === 'human' && st.moves === 4 &&
    st.cells.filter(Boolean).length === 4 && st.last.join() === 'i10', `${st.moves} moves, last ${st.last.join()}`);
  const { hint, prog } = await streamedHint(page, 'gmk-board', 'Gomoku');
  check('the Gomoku progress display updated during the search', prog.updates >= 1 && prog.shown.length >= 1 &&
    prog.shown.every((t) => /^\d+ \| [a-o]\d{1,2} \|/.test(t)), `${prog.updates} events; ${prog.shown.slice(0, 3).join(' / ')}`);
  const hintBad = hint ? await gmkMapMismatches(page, hint) : ['no answer'];
  check('the heat map shows every candidate the service scored', hint && hint.kind === 'gomoku' && (hint.moves || []).length >= 1 &&
    hintBad.length === 0, hintBad.slice(0, 3).join(' | ') || `${hint.moves.length} candidates`);
  const hinted = await page.$$eval('#gmk-board .gmk-pt.hint', (b) => b.map((x) => x.dataset.square));
  check('the hint is shown on the board', hinted.length === 1 && hinted[0] === hint.best_move, `${hinted.join()} / ${hint.best_move}`);

  // --- a whole game: random points near the centre for the human against the service ---
  await page.selectOption('#difficulty', GMK_LEVEL);
  await page.selectOption('#think-time', GMK_TIME_MS);
  await page.click('#new-game');
  turn = await waitForGmkHumanTurnOrEnd(page);
  const log = recordAnswers(page);
  const answers = log.answers;
  const random = rng(C4_SEED + 29);
  const unscored = [];
  let humanMoves = 0;
  let checkedAnswers = 0;
  let shot = false;
  while (turn === 'human' && humanMoves < 60) {
    st = await gmkState(page);
    await log.settled();
    if (log.asked > 0 && answers.length > checkedAnswers) {
      const last = answers[answers.length - 1];
      const bad = await gmkMapMismatches(page, last);
      if (bad.length) unscored.push(`after ${st.moves} moves: ${bad.join('; ')}`);
      checkedAnswers = answers.length;
      // The screenshot shows the heat map of a position with stones of both sides and many candidates.
      if (!shot && st.moves >= 6 && (last.moves || []).length >= 10) {
        shot = true;
        await screenshotGame(page, SCREENSHOT_GMK);
      }
    }
    // An empty point within two of the centre's 5x5 square, else any empty point.
    const near = st.names.filter((n, i) => st.cells[i] === '' && Math.abs('abcdefghijklmno'.indexOf(n[0]) - 7) <= 3 &&
      Math.abs(Number(n.slice(1)) - 8) <= 3);
    const empty = near.length ? near : st.names.filter((n, i) => st.cells[i] === '');
    const square = humanMoves === 0 ? 'h8' : empty[Math.floor(random() * empty.length)];
    // The first move by keyboard: from the centre, right and back, then Enter.
    turn = await humanPlays(page, 'gmk-board', `gp-${square}`, humanMoves === 0 &&
      { from: 'gp-h8', keys: ['ArrowRight', 'ArrowLeft'], what: 'Gomoku points' });
    humanMoves += 1;
  }
  await log.stop();
  st = await gmkState(page);
  const moveList = await page.inputValue('#moves-input');
  const status = await page.$eval('#status', (s) => ({ text: s.textContent, outcome: s.dataset.outcome || '' }));
  check('Gomoku game finished', turn === 'over' && ['human', 'computer', 'draw'].includes(status.outcome),
    `turn=${turn}; ${humanMoves} human moves; status="${status.text}"`);
  check('the heat map showed the candidates of every answer', checkedAnswers >= 3 && unscored.length === 0,
    unscored.slice(0, 3).join(' | ') || `${checkedAnswers} answers`);
  const end = answers[answers.length - 1] || {};
  const line = (end.best_move === null ? end.winning_line : end.winning_line_after) || [];
  check('the winning line is the service\'s and is marked', line.length >= 5 && st.win.slice().sort().join() === line.slice().sort().join(),
    `service ${line.join(' ')}, page ${st.win.join(' ')}`);
  check('the last Gomoku move is marked', st.last.length === 1, `${st.last.join()}`);
  check('the move list is in square notation', new RegExp(`^[a-o]\\d{1,2}( [a-o]\\d{1,2}){${st.moves - 1}}$`).test(moveList) &&
    st.cells.filter(Boolean).length === st.moves, `${moveList} (${st.moves} moves)`);
  console.log(`#    Gomoku game: ${humanMoves} human moves, ${st.moves} in all; ${status.text}`);
  if (!shot) await screenshotGame(page, SCREENSHOT_GMK);

  // --- undo gives the turn back to the human ---
  await page.click('#undo');
  turn = await waitForGmkHumanTurnOrEnd(page);
  const undone = await gmkState(page);
  check('undo takes back the last Gomoku moves', turn === 'human' && undone.moves < st.moves && undone.win.length === 0,
    `turn=${turn}, ${st.moves} -> ${undone.moves} moves`);
}

/** At phone width (375 px) nothing is wider than the screen, and both games still play. */
async function phoneWidth(page) {
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 812 });
  const overflow = async () => page.evaluate(() => {
    const wide = [...document.querySelectorAll('body *')].filter((e) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.right > document.documentElement.clientWidth + 1;
    }).map((e) => e.id || e.className || e.tagName).slice(0, 5);
    return { scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth, wide };
  });
  for (const game of ['connect4', 'othello', 'gomoku', 'tictactoe']) {
    await page.check(`#game-${game}`);
    await page.click('#new-game');
    const id = { connect4: 'c4-board', othello: 'oth-board', gomoku: 'gmk-board', tictactoe: 'board' }[game];
    const board = '#' + id;
    await waitForTurn(page, id, C4_TIMEOUT);
    const o = await overflow();
    check(`no horizontal overflow at phone width (${game})`, o.scroll <= o.client && o.wide.length === 0,
      `scrollWidth ${o.scroll}, clientWidth ${o.client}${o.wide.length ? `; too wide: ${o.wide.join(', ')}` : ''}`);
    const box = await page.$eval(board, (b) => b.getBoundingClientRect().width);
    const first = { connect4: '#col-3', othello: '#sq-d3', gomoku: '#gp-h8', tictactoe: '#cell-4' }[game];
    const before = Number(await page.$eval(board, (b) => b.dataset.moves));
    await page.click(first);
    await page.waitForFunction(([b, n]) => Number(document.querySelector(b).dataset.moves) > n, [board, before]);
    check(`${game} plays at phone width`, box > 200, `board ${Math.round(box)} px wide`);
    if (game === 'othello') {
      await page.waitForFunction((b) => document.querySelector(b).dataset.busy === 'false', board, { timeout: C4_TIMEOUT });
      await page.screenshot({ path: SCREENSHOT_OTH_PHONE, animations: 'disabled', fullPage: true });
      console.log(`screenshot saved to ${SCREENSHOT_OTH_PHONE}`);
    }
  }
  // The review of the tic-tac-toe game begun above fits the screen too.
  await waitForHumanTurnOrEnd(page);
  await page.click('#review-start');
  await page.waitForFunction(() => ['done', 'error'].includes(document.getElementById('review').dataset.state), null, { timeout: C4_TIMEOUT });
  const o = await overflow();
  check('no horizontal overflow at phone width (a game review)', o.scroll <= o.client && o.wide.length === 0 &&
    (await page.$eval('#review', (r) => r.dataset.state)) === 'done',
    `scrollWidth ${o.scroll}, clientWidth ${o.client}${o.wide.length ? `; too wide: ${o.wide.join(', ')}` : ''}`);
  await page.screenshot({ path: SCREENSHOT_PHONE, animations: 'disabled', fullPage: true });
  console.log(`screenshot saved to ${SCREENSHOT_PHONE}`);
  await page.setViewportSize(viewport);
}

async function main() {
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'bestmove-chromium-'));
  const pageErrors = [];
  let context;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1200, height: 900 },
      deviceScaleFactor: 1,
      colorScheme: 'light',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    // Every violation of the page's content policy is recorded, from the first line of the document on.
    await context.addInitScript(() => {
      window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => {
        window.__cspViolations.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`);
      });
    });
    const page = context.pages()[0] || (await context.newPage());
    page.setDefaultTimeout(STEP_TIMEOUT);
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    // Network failures (the expected 400 below) are logged as console errors too; only script errors count.
    page.on('console', (m) => {
      if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) pageErrors.push('console: ' + m.text());
    });

    const resp = await page.goto(BASE_URL + '/', { waitUntil: 'load' });
    check('GET / serves the page', resp && resp.status() === 200 && /text\/html/.test(resp.headers()['content-type'] || ''),
      resp ? `${resp.status()} ${resp.headers()['content-type']}` : 'no response');
    const headers = resp ? resp.headers() : {};
    const csp = headers['content-security-policy'] || '';
    check('the page is served with a strict content policy', /script-src 'self'(;|$)/.test(csp) && /style-src 'self'(;|$)/.test(csp) &&
      !/unsafe-inline/.test(csp) && headers['x-content-type-options'] === 'nosniff' && !!headers['referrer-policy'], csp);
    const assets = await page.evaluate(() => performance.getEntriesByType('resource')
      .filter((r) => new URL(r.name).pathname.startsWith('/assets/')).map((r) => new URL(r.name).pathname));
    const assetTypes = await page.evaluate(async (paths) => Promise.all(paths.map(async (p) => {
      const r = await fetch(p);
      return `${p} ${r.status} ${r.headers.get('content-type')} ${r.headers.get('etag') ? 'etag' : 'no-etag'}`;
    })), assets);
    check('the stylesheet and at least four modules load with their content types', assets.filter((a) => a.endsWith('.js')).length >= 4 &&
      assetTypes.every((t) => / 200 (text\/javascript|text\/css); charset=utf-8 etag$/.test(t)), assetTypes.join('; '));
    await page.waitForSelector('#cell-8');
    check('service reported online', await page.waitForFunction(
      () => document.getElementById('service-state').dataset.state === 'up', null, { timeout: 5000 }).then(() => true, () => false));

    // --- a full game: human X moves first against the perfect computer ---
    await page.selectOption('#difficulty', '10');
    await page.selectOption('#human-mark', 'X');
    await page.selectOption('#first-player', 'human');
    await page.click('#new-game');

    let turn = await waitForHumanTurnOrEnd(page);
    let humanMoves = 0;
    let hintChecked = false;
    while (turn === 'human' && humanMoves < 5) {
      if (humanMoves === 1 && !hintChecked) {
        hintChecked = true;
        await page.click('#hint');
        const hinted = await page.waitForSelector('#board .cell.hint', { timeout: STEP_TIMEOUT }).then(() => true, () => false);
        const info = hinted
          ? await page.$eval('#board .cell.hint', (c) => ({ id: c.id, label: c.getAttribute('aria-label'), mark: c.dataset.mark }))
          : null;
        check('hint highlights an empty cell', hinted && info.mark === '' && /suggested move/.test(info.label),
          info ? `${info.id}: ${info.label}` : 'no highlighted cell');
        const source = await page.$eval('#analysis', (a) => a.dataset.source);
        check('hint answer shown in the analysis panel', source === 'hint', `source=${source}`);
        turn = await waitForHumanTurnOrEnd(page);
      }
      const marks = await boardMarks(page);
      const target = PREFERENCE.find((i) => marks[i] === '');
      const before = marks.filter((m) => m !== '').length;
      await page.click(`#cell-${target}`);
      humanMoves += 1;
      await page.waitForFunction((n) => Number(document.getElementById('board').dataset.moves) > n, before);
      turn = await waitForHumanTurnOrEnd(page);
      if (humanMoves === 2) {
        // Mid-game: the analysis panel shows both searches.
        const mm = numberOf(await page.textContent('#mm-nodes'));
        const ab = numberOf(await page.textContent('#ab-nodes'));
        check('analysis shows node counts (minimax >= alpha-beta > 0)', ab > 0 && mm >= ab, `minimax=${mm} alpha-beta=${ab}`);
        const labels = await page.$$eval('#mini-board li.w, #mini-board li.d, #mini-board li.l', (ls) => ls.map((l) => l.textContent));
        check('analysis labels empty cells with scores', labels.length > 0 && labels.every((t) => /[WDL]/.test(t)), labels.join(' '));
        const en = numberOf(await page.textContent('#en-nodes'));
        check('analysis shows the engine\'s node count', en > 0, `engine=${en}`);
      }
    }
    const status = await page.$eval('#status', (s) => ({ text: s.textContent, outcome: s.dataset.outcome || '' }));
    check('game finished', turn === 'over', `turn=${turn}; status="${status.text}"`);
    check('service did not lose (draw or computer won)', ['draw', 'computer'].includes(status.outcome),
      `outcome=${status.outcome}; status="${status.text}"`);
    if (status.outcome === 'computer') {
      const winCells = await page.$$eval('#board .cell.win', (cs) => cs.length);
      check('winning line highlighted', winCells === 3, `${winCells} cells`);
    }
    const mm = numberOf(await page.textContent('#mm-nodes'));
    const ab = numberOf(await page.textContent('#ab-nodes'));
    check('final analysis node counts', ab > 0 && mm >= ab, `minimax=${mm} alpha-beta=${ab}`);

    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: SCREENSHOT, animations: 'disabled' });
    console.log(`screenshot saved to ${SCREENSHOT}`);

    // Undo takes back the human's last move and the computer's answer.
    const movesAtEnd = Number(await page.$eval('#board', (b) => b.dataset.moves));
    await page.click('#undo');
    turn = await waitForHumanTurnOrEnd(page);
    const movesAfterUndo = Number(await page.$eval('#board', (b) => b.dataset.moves));
    check('undo gives the move back to the human', turn === 'human' && movesAfterUndo < movesAtEnd && movesAfterUndo % 2 === 0,
      `turn=${turn}, ${movesAtEnd} -> ${movesAfterUndo} marks`);

    // --- the example tree ---
    const treeText = await page.inputValue('#tree-input');
    check('tree textarea prefilled', treeText.replace(/\s/g, '') === '[[5,-2,-1],[1,-5,6],[5,8,4]]', treeText);
    await page.check('#tree-maximizing');
    await page.click('#tree-submit');
    await page.waitForFunction(() => document.getElementById('tree-result').dataset.state === 'ok');
    const best = (await page.textContent('#tree-best')).trim();
    const score = (await page.textContent('#tree-score')).trim();
    check('example tree: best move 2, score 4', /^2\b/.test(best) && score === '4', `best="${best}" score="${score}"`);
    const tmm = numberOf(await page.textContent('#tree-mm-nodes'));
    const tab = numberOf(await page.textContent('#tree-ab-nodes'));
    check('example tree: both node counts shown', tab > 0 && tmm >= tab, `minimax=${tmm} alpha-beta=${tab}`);

    // --- broken JSON: the service's own error message is shown ---
    await page.fill('#tree-input', '[[1, 2], [3,');
    const answer = page.waitForResponse((r) => r.url().endsWith('/best-move') && r.request().method() === 'POST');
    await page.click('#tree-submit');
    const res = await answer;
    const body = await res.json().catch(() => null);
    const message = body && body.error && body.error.message;
    check('service answers broken JSON with an error', res.status() === 400 && typeof message === 'string' && message.length > 0,
      `HTTP ${res.status()} ${JSON.stringify(body)}`);
    await page.waitForFunction(() => document.getElementById('tree-error').textContent.trim() !== '');
    const shown = await page.$eval('#tree-error', (e) => ({
      text: e.textContent, role: e.getAttribute('role'), visible: e.offsetParent !== null && e.getBoundingClientRect().height > 0,
    }));
    check('#tree-error shows the service message', !!message && shown.text.includes(message) && shown.role === 'alert' && shown.visible,
      `"${shown.text}"`);

    const c4Moves = await connectFour(page);
    const othMoves = await othello(page);
    await gomoku(page);
    await reviews(page, c4Moves, othMoves);
    await phoneWidth(page);

    const violations = await page.evaluate(() => window.__cspViolations);
    check('no content policy violation reported', violations.length === 0, violations.join(' | '));
    check('no script errors on the page', pageErrors.length === 0, pageErrors.join(' | '));
  } finally {
    if (context) await context.close().catch(() => {});
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (e) {
  failed += 1;
  console.log(`FAIL - unexpected error: ${e && e.stack ? e.stack : e}`);
}
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
