// The event-stream (Server-Sent Events) format, parsed by hand because
// EventSource cannot POST a body. Pure: no DOM, no network.
//
// Follows the HTML standard's parsing rules: lines end in CRLF, LF or CR
// (a CR at the end of a chunk may be the first half of a CRLF); a line
// starting with ":" is a comment; "field: value" drops one space after the
// colon; a line with no colon is a field with an empty value; several
// "data" lines join with "\n"; a blank line dispatches the event, and an
// event without data is not dispatched.

export class EventStreamParser {
  constructor() {
    this.decoder = new TextDecoder();
    this.pending = '';
    this.started = false;
    this.type = '';
    this.data = [];
  }

  /** Feeds a chunk (text or bytes); returns the events it completed, as {event, data}. */
  push(chunk) {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (!this.started && text !== '') {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    this.pending += text;
    const events = [];
    let start = 0;
    for (let i = 0; i < this.pending.length; i++) {
      const ch = this.pending[i];
      if (ch !== '\n' && ch !== '\r') continue;
      if (ch === '\r' && i + 1 === this.pending.length) break; // maybe half of a CRLF: wait for more
      this.line(this.pending.slice(start, i), events);
      if (ch === '\r' && this.pending[i + 1] === '\n') i += 1;
      start = i + 1;
    }
    this.pending = this.pending.slice(start);
    return events;
  }

  /** The end of the stream: a lone CR ends its line; an event not closed by a blank line is dropped. */
  end() {
    const events = [];
    const rest = this.pending + this.decoder.decode();
    this.pending = '';
    if (rest.endsWith('\r')) this.line(rest.slice(0, -1), events);
    this.type = '';
    this.data = [];
    return events;
  }

  line(line, events) {
    if (line === '') {
      if (this.data.length > 0) events.push({ event: this.type || 'message', data: this.data.join('\n') });
      this.type = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.type = value;
    else if (field === 'data') this.data.push(value);
    // "id" and "retry" mean nothing to a one-shot POST; unknown fields are ignored.
  }
}

/** What one event of a stream means, by its name: a report passed on as it comes (`progress`, from
 *  the payload; `progress` maps an event name to a function of the payload), the result (`answer`,
 *  the name of the event that carries it), an `error` event, or nothing. */
export function eventReader({ progress, answer }) {
  return (ev, status) => {
    let payload = null;
    try { payload = JSON.parse(ev.data); } catch (_) { payload = null; }
    if (!payload || typeof payload !== 'object') return null;
    if (Object.hasOwn(progress, ev.event)) return { progress: progress[ev.event](payload) };
    if (ev.event === answer && !payload.error) return { outcome: { ok: true, data: payload } };
    if (ev.event === 'error' && payload.error) {
      return { outcome: { ok: false, kind: 'service', status, error: payload.error, message: payload.error.message } };
    }
    return null;
  };
}

/** What one event of a search's stream (POST /best-move) means: a progress report (an iteration of
 *  the engine, or `{ scored }`: a column whose score was just settled), the result, or nothing. */
export const readEvent = eventReader({
  progress: { progress: (p) => p, move: (p) => ({ scored: p }) },
  answer: 'answer',
});

/** What one event of a review's stream (POST /review) means: a ply judged (`ply`, reported as it
 *  is, in the order the plies are judged), the whole review (`review`), or nothing. */
export const readReviewEvent = eventReader({ progress: { ply: (p) => p }, answer: 'review' });
