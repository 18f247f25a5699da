-- wrk script for GET routes (such as /healthz): the default GET request, with
-- the status tally and RESULT line of report.lua, so a trivial route is
-- measured with the same client-side overhead as the searches.
--
-- Usage: wrk ... -s scripts/load/get.lua http://127.0.0.1:PORT/healthz

local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "report.lua")

wrk.method = "GET"
