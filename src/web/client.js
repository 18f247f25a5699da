// The service client: POST /best-move, answered as JSON or, for a client
// that watches the search, as an event stream of `progress` events ended by
// one `answer` (or `error`) event; POST /review likewise, its stream a `ply`
// event per move judged ended by one `review` (or `error`) event. Touches no DOM; `fetch` is looked up when
// called, so the Node tests can stand in for it.

import { EventStreamParser, readEvent, readReviewEvent } from './events.js';

/** After this long a request shows that it is still waiting. */
export const SLOW_MS = 300;
/** A request is given up after this long unless it says otherwise. */
export const TIMEOUT_MS = 10000;

/** A finished JSON response as a result (see postBestMove). */
export async function readJsonAnswer(res) {
  const text = await res.text();
  let data = null;
  try { data = JSON.parse(text); } catch (_) { data = null; }
  if (res.ok && data && typeof data === 'object' && !data.error) return { ok: true, data };
  if (data && data.error && typeof data.error.message === 'string') {
    let message = data.error.message;
    const retry = res.headers.get('Retry-After');
    if (res.status === 503 && retry) message += ' (try again in ' + retry + ' s)';
    return { ok: false, kind: 'service', status: res.status, error: data.error, message };
  }
  return { ok: false, kind: 'http', status: res.status,
    message: 'The service answered HTTP ' + res.status + ' without a readable error.' };
}

/** An event-stream body as a result: each report (a `progress` event of a search) goes to onProgress,
 *  the answer or `error` event settles it; `read` says what an event means (events.js). */
export async function readEventStream(res, onProgress, read = readEvent) {
  const reader = res.body.getReader();
  const parser = new EventStreamParser();
  const settle = (events) => {
    for (const ev of events) {
      const meaning = read(ev, res.status);
      if (!meaning) continue;
      if (meaning.progress) { if (onProgress) onProgress(meaning.progress); } else return meaning.outcome;
    }
    return null;
  };
  for (;;) {
    const { value, done } = await reader.read();
    const outcome = settle(done ? parser.end() : parser.push(value));
    if (outcome) {
      // Nothing follows the answer: read the rest so the request ends normally.
      if (!done) (async () => { try { while (!(await reader.read()).done) { /* empty */ } } catch (_) { /* closed */ } })();
      return outcome;
    }
    if (done) break;
  }
  return { ok: false, kind: 'http', status: res.status, message: 'The service ended the event stream without an answer.' };
}

/** POSTs a JSON text to /best-move. `promise` resolves to one of
 *  {ok: true, data} | {ok: false, kind: 'service'|'http'|'network'|'timeout'|'aborted', message, error?, status?}.
 *  With opts.onProgress the answer is asked for as an event stream and each progress report is passed on;
 *  opts.onSlow runs if there is no answer after SLOW_MS. */
export const postBestMove = (bodyText, opts = {}) => postJson('/best-move', bodyText, opts, readEvent);

/** POSTs a game to /review, as postBestMove does: with opts.onProgress each ply is passed on as it is
 *  judged (from the end of the game backwards, not in order), and the whole review settles it. Aborting
 *  hangs up, which cancels the review. */
export const postReview = (bodyText, opts = {}) => postJson('/review', bodyText, opts, readReviewEvent);

function postJson(path, bodyText, opts, read) {
  const timeoutMs = opts.timeoutMs || TIMEOUT_MS;
  const ctrl = new AbortController();
  let timedOut = false;
  const slowTimer = setTimeout(() => { if (opts.onSlow) opts.onSlow(); }, SLOW_MS);
  const killTimer = setTimeout(() => { timedOut = true; ctrl.abort(); }, timeoutMs);
  const promise = (async () => {
    try {
      const res = await fetch(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Accept': opts.onProgress ? 'text/event-stream' : 'application/json' },
        body: bodyText,
        cache: 'no-store',
        signal: ctrl.signal,
      });
      const type = res.headers.get('Content-Type') || '';
      if (res.ok && res.body && /text\/event-stream/i.test(type)) return await readEventStream(res, opts.onProgress, read);
      return await readJsonAnswer(res);
    } catch (_) {
      if (timedOut) return { ok: false, kind: 'timeout',
        message: 'The service did not answer within ' + Math.round(timeoutMs / 1000) + ' seconds, so the request was cancelled.' };
      if (ctrl.signal.aborted) return { ok: false, kind: 'aborted', message: 'Cancelled.' };
      return { ok: false, kind: 'network', message: 'Cannot reach the service. Check that it is running, then try again.' };
    } finally {
      clearTimeout(slowTimer);
      clearTimeout(killTimer);
    }
  })();
  return { promise, abort: () => ctrl.abort() };
}

/** GET /healthz: the service's version, or null when it does not answer. */
export async function fetchHealth() {
  const ctrl = new AbortController();
  const t = setTimeout(() => ctrl.abort(), 4000);
  try {
    const res = await fetch('/healthz', { cache: 'no-store', signal: ctrl.signal });
    const data = await res.json().catch(() => null);
    if (!res.ok) return null;
    return { version: data && data.version };
  } catch (_) {
    return null;
  } finally {
    clearTimeout(t);
  }
}
