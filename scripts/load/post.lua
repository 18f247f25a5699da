-- wrk script for POST /best-move: the JSON body is read from the file named
-- as the script's first argument (so a large body, such as a generated game
-- tree, need not fit on a command line), sent with Content-Type
-- application/json on every request. Status tally and RESULT line: report.lua.
--
-- Usage: wrk ... -s scripts/load/post.lua http://127.0.0.1:PORT/best-move -- BODY_FILE

local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "report.lua")

function init(args)
  local path = args[1]
  if not path then
    error("post.lua: pass the body file after --, e.g. wrk ... -- body.json")
  end
  local file = assert(io.open(path, "rb"))
  local body = file:read("*a")
  file:close()
  wrk.method = "POST"
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end
