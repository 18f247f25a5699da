-- Shared by the bestmove load scripts (get.lua, post.lua), loaded with
-- dofile: tallies every response by HTTP status in each wrk thread and, when
-- the run is over, prints one machine-readable line for scripts/load-test.sh:
--
--   RESULT requests=N duration_us=N rps=F p50_us=N p90_us=N p99_us=N max_us=N
--          connect=N read=N write=N timeout=N statuses=200:N,503:N
--
-- wrk's own "Non-2xx" line lumps every status together; the tally here tells
-- a 503 (load shed, expected under overload) from anything else.

local threads = {}

-- Runs in the main Lua state, once per wrk thread: keep the handle so done()
-- can read that thread's tally.
function setup(thread)
  table.insert(threads, thread)
end

-- Per-thread tally: status code -> responses. A global, so thread:get sees it.
statuses = {}

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local counts = {}
  for _, thread in ipairs(threads) do
    local tally = thread:get("statuses") or {}
    for code, n in pairs(tally) do
      code = tonumber(code)
      counts[code] = (counts[code] or 0) + n
    end
  end
  local codes = {}
  for code in pairs(counts) do table.insert(codes, code) end
  table.sort(codes)
  local parts = {}
  for _, code in ipairs(codes) do
    table.insert(parts, string.format("%d:%d", code, counts[code]))
  end
  local seconds = summary.duration / 1e6
  local errors = summary.errors
  io.write(string.format(
    "RESULT requests=%d duration_us=%d rps=%.1f p50_us=%d p90_us=%d p99_us=%d max_us=%d " ..
    "connect=%d read=%d write=%d timeout=%d statuses=%s\n",
    summary.requests, summary.duration, summary.requests / seconds,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    errors.connect, errors.read, errors.write, errors.timeout,
    #parts > 0 and table.concat(parts, ",") or "none"))
end
