-- wrk script: many participants answering a benchmark survey, each with their own signed
-- session cookie and CSRF token, as a browser would.
--
--   wrk -t2 -c32 -d10s --latency -s bench/lua/participants.lua http://127.0.0.1:PORT \
--       -- <participants_file> <cycle|post> <survey> <questions> [nthreads=2] [window=256]
--
-- participants_file: lines "<cookie> <csrf> <answered>", where <answered> is how many of
-- the survey's questions (q1 … q<questions>) the participant's run has answered; a line with
-- "-" instead of a number is a fresh session that has no run yet, and carries a fourth field:
-- the token of the run its first answer starts (<csrf> is then its first page's token).
--
-- cycle  GET /surveys/<survey> (the current step), then POST its answer (durable commit, 303),
--        then GET the next step: two requests per answered step, what a browser does.
-- post   POST answers only (each answered with a 303); a fresh session still begins with a GET,
--        which starts its run.
--
-- Each wrk thread takes every nthreads-th line: the first <window> are its participants,
-- the rest are fresh sessions that replace a participant once it has answered the last
-- question (the run is then complete). A thread visits its participants round-robin, so with
-- window much larger than the connections per thread, a participant's next request is sent
-- long after the previous one was answered and two requests for one run never race.

local thread_counter = 0
local threads = {}

function setup(thread)
   thread:set("tid", thread_counter)
   thread_counter = thread_counter + 1
   table.insert(threads, thread)
end

local parts, fresh = {}, {}
local pos, next_fresh = 1, 1
local mode, survey, questions
local path
c_2xx, c_3xx, c_4xx, c_5xx, c_other, n_post, n_get, n_completed, n_starved = 0, 0, 0, 0, 0, 0, 0, 0, 0

function init(args)
   local file = args[1]
   mode = args[2] or "cycle"
   survey = args[3]
   questions = tonumber(args[4])
   local nthreads = tonumber(args[5] or "2")
   local window = tonumber(args[6] or "256")
   path = "/surveys/" .. survey
   local i = 0
   for line in io.lines(file) do
      local cookie, csrf, answered, then_csrf = line:match("^(%S+)%s+(%S+)%s+(%S+)%s*(%S*)")
      if cookie then
         if i % nthreads == tid then
            local p = { cookie = "survey_session=" .. cookie, csrf = csrf, then_csrf = then_csrf }
            if answered == "-" then
               p.answered, p.phase = 0, "get"
            else
               -- half begin with the GET of their current step, so GETs and POSTs mix at once
               p.answered = tonumber(answered)
               p.phase = (mode == "cycle" and #parts % 2 == 0) and "get" or "post"
            end
            if #parts < window then table.insert(parts, p) else table.insert(fresh, p) end
         end
         i = i + 1
      end
   end
   if #parts == 0 then error("no participants for thread " .. tostring(tid)) end
end

local function get(p)
   n_get = n_get + 1
   return wrk.format("GET", path, { ["Cookie"] = p.cookie })
end

-- wrk builds one request on thread 0 before the run only to check the script, and never sends
-- it; so the first request() changes no state (on the other threads it is one extra GET).
local first_call = true

function request()
   if first_call then
      first_call = false
      return wrk.format("GET", path, { ["Cookie"] = parts[1].cookie })
   end
   local index = pos
   local p = parts[index]
   pos = pos % #parts + 1
   if p.phase == "get" then
      p.phase = "post"
      return get(p)
   end
   local k = p.answered + 1
   p.answered = k
   p.phase = (mode == "cycle") and "get" or "post"
   if k >= questions then
      -- the last answer completes the run: a fresh session takes this participant's place
      n_completed = n_completed + 1
      if next_fresh <= #fresh then
         parts[index] = fresh[next_fresh]
         next_fresh = next_fresh + 1
      else
         n_starved = n_starved + 1
         parts[index] = { cookie = p.cookie, csrf = p.csrf, answered = 0, phase = "get", spent = true }
      end
   end
   n_post = n_post + 1
   local choice = tostring(k % 5 + 1)
   local csrf = p.csrf
   if p.then_csrf and p.then_csrf ~= "" then
      -- the first answer starts the run; the run's own token serves from then on
      p.csrf, p.then_csrf = p.then_csrf, nil
   end
   return wrk.format("POST", path, { ["Cookie"] = p.cookie, ["Content-Type"] = "application/x-www-form-urlencoded" },
                     "_csrf=" .. csrf .. "&q" .. k .. "=" .. choice .. "&_action=next")
end

-- what the first five error answers said (status, page title and message), so a failed run says why
bad = ""
local bad_count = 0

local function note_error(status, body)
   bad_count = bad_count + 1
   if bad_count > 5 then return end
   local title = body and body:match("<title>([^<]*)</title>") or ""
   local text = body and body:match('<p class="body">([^<]*)</p>') or ""
   bad = bad .. status .. " " .. (title .. ": " .. text):gsub("[\r\n|]", " ") .. "|"
end

function response(status, headers, body)
   if status >= 200 and status < 300 then c_2xx = c_2xx + 1
   elseif status >= 300 and status < 400 then c_3xx = c_3xx + 1
   elseif status >= 400 and status < 500 then c_4xx = c_4xx + 1; note_error(status, body)
   elseif status >= 500 then c_5xx = c_5xx + 1; note_error(status, body)
   else c_other = c_other + 1 end
end

function done(summary, latency, requests)
   local t = { c_2xx = 0, c_3xx = 0, c_4xx = 0, c_5xx = 0, c_other = 0, n_post = 0, n_get = 0, n_completed = 0, n_starved = 0 }
   for _, thread in ipairs(threads) do
      for k, _ in pairs(t) do t[k] = t[k] + (thread:get(k) or 0) end
   end
   io.write(string.format(
      "STATUS 2xx=%d 3xx=%d 4xx=%d 5xx=%d other=%d issued_post=%d issued_get=%d completed=%d starved=%d\n",
      t.c_2xx, t.c_3xx, t.c_4xx, t.c_5xx, t.c_other, t.n_post, t.n_get, t.n_completed, t.n_starved))
   for _, thread in ipairs(threads) do
      for entry in (thread:get("bad") or ""):gmatch("([^|]+)|") do io.write("ERROR-ANSWER " .. entry .. "\n") end
   end
end
