// The page's entry point: one controller per game, the game switch, the
// controls every game shares, the game review, the tree explorer and the
// service's state.
//
// A new game is one adapter module (see controller.js for what it
// provides) registered in GAMES, its board and settings in index.html
// (shown while it is played by the `body[data-game]` rule in style.css); the
// adapter names its own settings and move-list field, which its controller
// binds. Every file of the page is embedded in the binary: a new module also
// needs its line in ASSETS (src/web/mod.rs), which tests/api/page.rs
// checks against what the page loads.

import { $ } from './dom.js';
import { fetchHealth } from './client.js';
import { GameController } from './controller.js';
import { tictactoe } from './tictactoe.js';
import { connectFour } from './connect4.js';
import { othello } from './othello.js';
import { gomoku } from './gomoku.js';
import { treeExplorer } from './tree.js';
import { GameReview } from './review.js';

/** The games, by the id the page's switch and `body[data-game]` use. */
const GAMES = { tictactoe, connect4: connectFour, othello, gomoku };
/** The game shown for a URL fragment (#connect4, #othello, #gomoku); the first game otherwise. */
const DEFAULT_GAME = 'tictactoe';

async function checkHealth() {
  const pill = $('service-state');
  const health = await fetchHealth();
  if (!health) {
    pill.dataset.state = 'down';
    pill.textContent = 'service unreachable';
    return;
  }
  pill.dataset.state = 'up';
  pill.textContent = 'service online' + (health.version ? ' · v' + health.version : '');
  if (health.version) $('version-note').textContent = 'bestmove ' + health.version;
}

const shared = { tally: { human: 0, draw: 0, computer: 0 }, checkHealth };
const games = {};
for (const [id, make] of Object.entries(GAMES)) games[id] = new GameController(make(), shared);
let current = null;
const review = new GameReview();

/** Shows one game; switching starts a new game of it. */
function setMode(id, fromUser) {
  const next = games[id] ? id : DEFAULT_GAME;
  document.body.dataset.game = next;
  $('game-' + next).checked = true;
  if (fromUser) history.replaceState(null, '', next === DEFAULT_GAME ? location.pathname + location.search : '#' + next);
  // Only one game runs at a time: stop the others' searches.
  for (const game of Object.values(games)) game.deactivate();
  current = games[next];
  review.attach(current);
  current.activate();
}

$('new-game').addEventListener('click', () => current.newGame());
$('hint').addEventListener('click', () => current.askHint());
$('undo').addEventListener('click', () => current.undo());
$('retry').addEventListener('click', () => current.runRetry());
$('first-player').addEventListener('change', () => current.newGame());
document.querySelectorAll('input[name="game"]').forEach((r) => r.addEventListener('change', () => {
  if (r.checked) setMode(r.value, true);
}));
$('pv-toggle').addEventListener('click', () => current.togglePv());
$('copy-moves').addEventListener('click', () => current.copyMoves());
$('load-moves').addEventListener('click', () => current.loadMoves());

treeExplorer();
checkHealth();
setMode(location.hash.slice(1), false);
