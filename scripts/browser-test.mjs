// End-to-end test of the page served at GET / by a running bestmove server.
//
// Usage: node scripts/browser-test.mjs
// Environment:
//   BASE_URL        server address, e.g. http://127.0.0.1:8080 (required)
//   PW_DIR          folder whose node_modules holds playwright-core (default target/browser-test)
//   CHROMIUM        browser executable (default /usr/bin/chromium)
//   SCREENSHOT      where to save the screenshot (default docs/screenshot.png)
import { createRequire } from 'node:module';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const BASE_URL = (process.env.BASE_URL || '').replace(/\/$/, '');
const PW_DIR = path.resolve(process.env.PW_DIR || 'target/browser-test');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SCREENSHOT = path.resolve(process.env.SCREENSHOT || 'docs/screenshot.png');

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

async function waitForHumanTurnOrEnd(page) {
  await page.waitForFunction(() => {
    const b = document.getElementById('board');
    return b.dataset.busy === 'false' && ['human', 'over', 'error'].includes(b.dataset.turn);
  }, null, { timeout: STEP_TIMEOUT });
  return page.$eval('#board', (b) => b.dataset.turn);
}

async function boardMarks(page) {
  return page.$$eval('#board .cell', (cs) => cs.map((c) => c.dataset.mark || ''));
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
    await page.waitForSelector('#cell-8');
    check('service reported online', await page.waitForFunction(
      () => document.getElementById('service-state').dataset.state === 'up', null, { timeout: 5000 }).then(() => true, () => false));

    // --- a full game: human X moves first against the perfect computer ---
    await page.selectOption('#difficulty', '0');
    await page.selectOption('#depth', 'full');
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
