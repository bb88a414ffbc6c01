#!/usr/bin/env python3
"""The researchers' dashboard of a survey with 10⁵ runs: the first look, warm looks, downloads,
and the looks after runs change.

Starts `survey serve` on loopback with a new data folder and an API token, and walks eight runs
of wellbeing-check over HTTP as browsers would, each its own way: four completed with
different moods, sleep, activities and comments (the scripted answers of Tests/Fixtures, comments
skipped, sleep skipped…), two saved part-way (`_action=save`), two left in progress (one after a
Back). With the server stopped, it copies those runs round-robin in the SQLite file until the
survey has N runs (export.py's `copy_runs`: new ids in `runs.id`, `visits.run` and the state's
`taskRunUUID`), then spreads every run's start over the last ~60 days (the run header's
`startDate` and `endDate` in `runs.state` — JSON with seconds since 1970 — and the `started_at`,
`updated_at` and `saved_at` columns, shifted alike; the visits keep their dates, so the time on
each step is the walk's) so that the runs-by-day chart has many days. It empties the dashboard's
tables, as on a store that never had a dashboard. Then it starts the server on that file and:

- GETs /dashboard/wellbeing-check at once: it waits for the first full pass over every run (the
  background refresh starts it when the server starts; the request shares it), which writes
  every run's facts. It times the request, the time from the server's start to the answer, the
  server's CPU, and its VmRSS (sampled every 50 ms) and VmHWM (reset before, where the kernel
  allows), as export.py does;
- GETs the page 20 times warm, then with ?status=completed, then with ?from=…&to=… covering
  10 days, then each CSV download (runs, funnel, times, each question) 20 times and each SVG
  5 times: median and maximum ms;
- completes 50 new runs over HTTP (the eight ways in turn) and times the next page (the
  incremental refresh: the runs changed since the watermark whose facts are older, newest first);
- changes 1000 completed runs in the store as a writer would (the mood answer in their visit
  to 1, their version up by one, `updated_at` now), times the next page, and then 5 more pages
  (each refresh asks again which runs changed within two minutes of the newest change it has
  seen have older facts, and reads none of them).
  Either change is made again (at most three times) when the background refresh, every 60 s,
  wrote the changed runs' facts before the timed request;
- with the server stopped, shows SQLite's plan (this Python's SQLite, the same system library
  the server links) and time for each of the dashboard's queries.

Checks on the way: each walk ended where it should; the runs.csv "All" column sums to the runs
in the store (N, then N + the runs added), and the funnel's first step "Reached" equals it; the
status filter counts the completed runs; the date filter's periods are within its days and sum
to those days of the unfiltered chart; the mood question counts the changed answers.

Prints a markdown table and writes it to bench/results/dashboard.md (not with --smoke: N = 2000,
5 GETs of each and 200 runs changed, in a few seconds; --out names a file for it), with the
figures as JSON beside it. The server is the release build when there is one (--binary names
another); a debug build's figures are marked pessimistic. Exits 1 when a check fails. Only the standard library is used (and export.py, bench.py and
the form walker of Tests/e2e/survey_http.py).
"""
import argparse
import csv
import datetime
import http.client
import io
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

from export import (ROOT, HERE, TOKEN, Http, Sampler, Server, complete_run, controls_of, copy_runs, cpu_seconds, log,
                    reset_peak, started, status_kib)  # export.py, beside this file
from bench import machine_description

SURVEY = "wellbeing-check"
PAGE = f"/dashboard/{SURVEY}"
DAY = 86_400
CHARTS = ["runs", "funnel", "times"]  # the questions' charts are read from the page's links

# The ways the template runs are walked: what the participant posts from the first page, as
# (action, fields), and where the walk must end ("done", "saved", or a field of the step
# showing). None: the scripted answers of Tests/Fixtures, by export.py's complete_run.
WALKS = [
    ("completed: the scripted answers (mood 4)", None, "done"),
    ("completed: mood 2, no activities, comments skipped",
     [("next", {}), ("next", {"mood": "2"}), ("next", {"sleep.hours": "6", "sleep.minutes": "0"}),
      ("next", {"activities": ["none"]}), ("skip", {}), ("next", {})], "done"),
    ("completed: mood 5, two activities, a comment",
     [("next", {}), ("next", {"mood": "5"}), ("next", {"sleep.hours": "8", "sleep.minutes": "15"}),
      ("next", {"activities": ["walk", "creative"]}), ("next", {"comments": "Slept well, walked a lot."}), ("next", {})],
     "done"),
    ("completed: mood 3, sleep and comments skipped",
     [("next", {}), ("next", {"mood": "3"}), ("skip", {}), ("next", {"activities": ["social"]}), ("skip", {}),
      ("next", {})], "done"),
    ("saved at sleep",
     [("next", {}), ("next", {"mood": "1"}), ("save", {})], "saved"),
    ("saved at comments",
     [("next", {}), ("next", {"mood": "3"}), ("next", {"sleep.hours": "7", "sleep.minutes": "0"}),
      ("next", {"activities": ["walk"]}), ("save", {})], "saved"),
    ("in progress at sleep, after a Back from activities",
     [("next", {}), ("next", {"mood": "4"}), ("next", {"sleep.hours": "5", "sleep.minutes": "45"}), ("back", {})],
     "sleep.hours"),
    ("in progress at activities, sleep skipped",
     [("next", {}), ("next", {"mood": "2"}), ("skip", {})], "activities"),
]
COMPLETED_WALKS = [i for i, (_, _, end) in enumerate(WALKS) if end == "done"]
MOOD_ANSWER = re.compile(rb'"answer":\{"scale":\{"_0":(\d+)\}\}')
CHANGED_MOOD = 1


# ----------------------------------------------------------------------------- walking runs
def walk(base_url, posts, end):
    """One participant's browser posting `posts` from the survey's first page; checks it ended
    at `end`."""
    client = Http(base_url)
    status, body, url = client.get(f"/surveys/{SURVEY}")
    for action, fields in posts:
        if status != 200 or "_csrf" not in controls_of(body).hidden:
            raise RuntimeError(f"{SURVEY}: {url} answered {status} without a step form, before {action} {fields}")
        status, body, url = client.post_form(body, url, fields, action=action)
    where = url.rstrip("/").rsplit("/", 1)[-1]
    if status != 200 or (where != end if end in ("done", "saved") else end not in controls_of(body).controls):
        raise RuntimeError(f"{SURVEY}: the walk ended at {url} ({status}), not at {end}")


def walk_one(base_url, index):
    _, posts, end = WALKS[index % len(WALKS)]
    if posts is None:
        complete_run(base_url, SURVEY)  # raises unless it reached the done page
    else:
        walk(base_url, posts, end)


def run_ids(database, since=None):
    """The survey's run ids (changed since `since`, when given), read beside the server."""
    con = sqlite3.connect(database, timeout=60)
    try:
        if since is None:
            return {r[0] for r in con.execute("SELECT id FROM runs WHERE survey = ?", (SURVEY,))}
        return {r[0] for r in con.execute("SELECT id FROM runs WHERE survey = ? AND updated_at >= ?", (SURVEY, since))}
    finally:
        con.close()


# ----------------------------------------------------------------------------- the store
def spread_dates(database, days, newest, seed=1):
    """Moves each run's start to a random moment of the `days` before `newest`, shifting its
    header's startDate and endDate and its started_at, updated_at, saved_at and
    resume_expires_at alike (whole seconds); empties the dashboard's tables. Returns seconds."""
    began = time.time()
    rng = random.Random(seed)
    con = sqlite3.connect(database, timeout=60, isolation_level=None)
    try:
        con.execute("PRAGMA synchronous = OFF")
        con.execute("PRAGMA cache_size = -262144")
        con.execute("BEGIN")
        rows = con.execute("SELECT id, state, started_at, updated_at, saved_at, resume_expires_at FROM runs WHERE survey = ?",
                           (SURVEY,)).fetchall()
        if not con.execute("SELECT 1 FROM sqlite_schema WHERE name = 'dashboard_runs'").fetchone():
            raise RuntimeError("the store has no dashboard tables: the binary was built before the dashboard (--binary names another)")
        updates = []
        for run_id, state, started_at, updated_at, saved_at, expires_at in rows:
            header = json.loads(bytes(state))
            if header.get("taskRunUUID") != run_id or not isinstance(header.get("startDate"), (int, float)):
                raise RuntimeError(f"the state of {run_id} is not the header expected: {bytes(state)[:300]!r}")
            shift = round(newest - rng.uniform(0, days * DAY) - header["startDate"])
            header["startDate"] += shift
            if "endDate" in header:
                header["endDate"] += shift
            updates.append((json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode(), started_at + shift,
                            updated_at + shift, None if saved_at is None else saved_at + shift,
                            None if expires_at is None else expires_at + shift, run_id))
        con.executemany("UPDATE runs SET state = ?, started_at = ?, updated_at = ?, saved_at = ?, resume_expires_at = ? "
                        "WHERE id = ?", updates)
        for table in ("dashboard_answers", "dashboard_steps", "dashboard_labels", "dashboard_runs", "dashboard_surveys"):
            con.execute(f"DELETE FROM {table}")
        con.execute("COMMIT")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        con.close()
    return time.time() - began


def change_moods(database, ids, now):
    """A writer's change to completed runs: the mood answer in their visit set to CHANGED_MOOD,
    their version up by one, updated_at now; one transaction beside the running server."""
    con = sqlite3.connect(database, timeout=60, isolation_level=None)
    try:
        con.execute("BEGIN IMMEDIATE")
        for run_id in ids:
            idx, data = con.execute("SELECT idx, data FROM visits WHERE run = ? AND CAST(data AS TEXT) LIKE "
                                    "'{\"stepIdentifier\":\"mood\"%'", (run_id,)).fetchone()
            changed, count = MOOD_ANSWER.subn(b'"answer":{"scale":{"_0":%d}}' % CHANGED_MOOD, bytes(data))
            if count != 1:
                raise RuntimeError(f"the mood visit of {run_id} holds {count} scale answers: {bytes(data)[:300]!r}")
            con.execute("UPDATE visits SET data = ? WHERE run = ? AND idx = ?", (changed, run_id, idx))
            con.execute("UPDATE runs SET version = version + 1, updated_at = ? WHERE id = ?", (now, run_id))
        con.execute("COMMIT")
    finally:
        con.close()


def facts_written(database, ids):
    """How many of these runs have facts at their current version (the refresh reached them)."""
    con = sqlite3.connect(database, timeout=60)
    try:
        found = 0
        ids = list(ids)
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            found += con.execute(f"SELECT count(*) FROM dashboard_runs d JOIN runs r ON r.id = d.run AND r.version = d.version "
                                 f"WHERE d.run IN ({','.join('?' * len(chunk))})", chunk).fetchone()[0]
        return found
    finally:
        con.close()


# The dashboard's queries as the SQLite store sends them (Sources/SurveyStorage/Dashboard/DashboardStore.swift).
def dashboard_queries(first_day, last_day, since):
    """[(name, sql, arguments)]: the tally's three queries and a histogram's, unfiltered, and
    some filtered as the benchmark's pages are; the refresh's read of the runs changed since its
    watermark (less its margin)."""
    answers = "SELECT key, outcome, bucket, COUNT(*), MIN(number), MAX(number) FROM dashboard_answers"
    return [
        ("runs by day and status", "SELECT day, status, COUNT(*) FROM dashboard_runs WHERE survey = ? GROUP BY day, status",
         (SURVEY,)),
        ("steps", "SELECT step, stopped, status, seconds, COUNT(*) FROM dashboard_steps WHERE survey = ? "
                  "GROUP BY step, stopped, status, seconds", (SURVEY,)),
        ("answers", f"{answers} WHERE survey = ? GROUP BY key, outcome, bucket", (SURVEY,)),
        ("histogram of mood", "SELECT CAST((number - ?) / ? + 1e-9 AS INTEGER) AS bin, COUNT(*) FROM dashboard_answers "
                              "WHERE survey = ? AND key = ? AND outcome = 'answered' AND number IS NOT NULL GROUP BY bin",
         (1.0, 1.0, SURVEY, "mood")),
        ("steps, status = completed", "SELECT step, stopped, status, seconds, COUNT(*) FROM dashboard_steps "
                                      "WHERE survey = ? AND +status = ? GROUP BY step, stopped, status, seconds",
         (SURVEY, "completed")),
        ("answers, status = completed", f"{answers} WHERE survey = ? AND +status = ? GROUP BY key, outcome, bucket",
         (SURVEY, "completed")),
        ("runs by day, 10 days", "SELECT day, status, COUNT(*) FROM dashboard_runs WHERE survey = ? AND day >= ? AND day <= ? "
                                 "GROUP BY day, status", (SURVEY, first_day, last_day)),
        ("answers, 10 days", f"{answers} WHERE survey = ? AND day >= ? AND day <= ? GROUP BY key, outcome, bucket",
         (SURVEY, first_day, last_day)),
        ("refresh: the runs changed since the watermark less 2 min with older facts",
         "SELECT r.id FROM runs r LEFT JOIN dashboard_runs d ON d.run = r.id WHERE r.survey = ? AND r.updated_at >= ? "
         "AND (d.version IS NULL OR d.version <> r.version) ORDER BY r.updated_at DESC LIMIT ?", (SURVEY, since, 500)),
    ]


def query_plans(database, first_day, last_day):
    """[(name, plan, best of three ms)] of the dashboard's queries, and the facts' row counts."""
    con = sqlite3.connect(database, timeout=60)
    try:
        watermark = con.execute("SELECT watermark FROM dashboard_surveys WHERE survey = ?", (SURVEY,)).fetchone()[0]
        out = []
        for name, sql, args in dashboard_queries(first_day, last_day, watermark - 120):
            plan = "; ".join(r[-1] for r in con.execute("EXPLAIN QUERY PLAN " + sql, args))
            times = []
            for _ in range(3):
                began = time.perf_counter()
                rows = len(con.execute(sql, args).fetchall())
                times.append((time.perf_counter() - began) * 1000)
            out.append({"query": name, "plan": plan, "ms": min(times), "rows": rows})
        rows = {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                for t in ("runs", "visits", "dashboard_runs", "dashboard_steps", "dashboard_answers", "dashboard_labels")}
        try:  # the facts' tables and indexes, where this SQLite has the dbstat table
            facts_mb = con.execute("SELECT sum(pgsize) / 1e6 FROM dbstat WHERE name LIKE 'dashboard%'").fetchone()[0]
        except sqlite3.Error:
            facts_mb = None
        return out, rows, facts_mb
    finally:
        con.close()


# ----------------------------------------------------------------------------- requests
def get(port, path, timeout=600):
    """(status, Content-Type, body, ms) of a GET with the API token."""
    began = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Authorization": f"Bearer {TOKEN}"})
        response = conn.getresponse()
        body = response.read()
        return response.status, response.getheader("Content-Type", ""), body, (time.perf_counter() - began) * 1000
    finally:
        conn.close()


def fetch(port, path, content_type="text/", timeout=600):
    """The body of a GET that must answer 200 with this Content-Type, and its ms."""
    status, got_type, body, ms = get(port, path, timeout)
    if status != 200 or not got_type.startswith(content_type):
        raise RuntimeError(f"GET {path} answered {status} {got_type}: {body[:300]!r}")
    return body, ms


def timed(port, path, repeats, content_type="text/"):
    """`repeats` GETs of one address: {ms: [...], median, max} and the last body."""
    times, body = [], b""
    for _ in range(repeats):
        body, ms = fetch(port, path, content_type)
        times.append(ms)
    return {"path": path, "requests": repeats, "median_ms": statistics.median(times), "max_ms": max(times)}, body


def table_of(body):
    """A CSV download as rows (the header first), its byte-order mark dropped."""
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"), newline="")))


def runs_by_period(body):
    """{period: {column: count}} of runs.csv."""
    rows = table_of(body)
    return {row[0]: {name: int(value) for name, value in zip(rows[0][1:], row[1:])} for row in rows[1:]}


def total_runs(body):
    return sum(counts["All"] for counts in runs_by_period(body).values())


def first_reached(body):
    rows = table_of(body)
    return int(rows[1][rows[0].index("Reached")])


def histogram_count(body, lower):
    """The count of a question's histogram bar that starts at `lower` (0 when there is none)."""
    return next((int(row[2]) for row in table_of(body)[1:] if row[0] == str(lower)), 0)


def census(port, query=""):
    """(runs counted by runs.csv, the funnel's first Reached) for a query string."""
    runs, _ = fetch(port, f"{PAGE}/runs.csv{query}", "text/csv")
    funnel, _ = fetch(port, f"{PAGE}/funnel.csv{query}", "text/csv")
    return total_runs(runs), first_reached(funnel), runs


# ----------------------------------------------------------------------------- report
def mib(kib):
    return "–" if kib is None else f"{kib / 1024:.1f}"


def table(meta, results, checks):
    cold, memory, store = results["cold"], results["cold"]["memory"], meta["store"]
    lines = ["# The dashboard of a survey with N runs", "",
             f"{meta['date']} · commit {meta['commit']} · binary {meta['binary']} (built {meta['binary_built']}) · "
             f"{meta['machine']} · N = {meta['runs']} runs of {SURVEY}", ""]
    if meta["debug"]:
        lines += ["**A debug build**: its figures are pessimistic (Swift without optimisation); the release build's "
                  "are the ones to quote.", ""]
    lines += [f"The runs: {len(WALKS)} walked over HTTP ({'; '.join(w[0] for w in WALKS)}), copied round-robin to N "
              f"and spread over {meta['days']} days ({cold['periods']} days in the runs chart). Each request is a GET with "
              "an API token; every dashboard request first brings the facts up to date, then counts them in SQL.", "",
              "| request | GETs | median ms | max ms |", "|---|---:|---:|---:|",
              f"| first page after start: the full pass over {meta['runs']} runs (server ready → answer) | 1 | "
              f"{cold['ms']:.0f} | |"]
    for r in results["warm"]:
        lines.append(f"| {r['what']} | {r['requests']} | {r['median_ms']:.0f} | {r['max_ms']:.0f} |")
    for r in results["changes"]:
        lines.append(f"| {r['what']} | 1 | {r['ms']:.0f} | |")
    if results.get("after_burst"):
        r = results["after_burst"]
        lines.append(f"| {r['what']} | {r['requests']} | {r['median_ms']:.0f} | {r['max_ms']:.0f} |")
    lines += ["", f"The first pass: {cold['ms'] / 1000:.1f} s for the request, {cold['from_spawn_s']:.1f} s from starting the "
              f"server to the answer ({cold['from_spawn_s'] / meta['runs'] * 1e6:.0f} µs per run; the background refresh starts "
              f"the pass as the server starts, {cold['start_s']:.1f} s before it answered its first request); server CPU "
              f"{cold['server_cpu_s']:.1f} s during the request, {cold['server_cpu_total_s']:.1f} s since start. Server memory "
              f"during it: VmRSS {mib(memory['rss_before_kib'])} MiB before, peak {mib(memory['peak_kib'])} MiB (the largest of "
              f"VmRSS sampled every 50 ms, {memory['samples']} samples, and VmHWM"
              + (", reset before the request" if memory["hwm_was_reset"] else ", not resettable here: since start")
              + f"), {mib(memory['rss_after_kib'])} MiB after.", "",
              f"The store: {store.get('runs_copied_s', 0):.1f} s to copy the runs, {store.get('spread_s', 0):.1f} s to spread "
              f"their dates; {store.get('database_mb', 0):.0f} MB after the facts were written"
              + (f", of which the facts' tables and indexes {store['facts_mb']:.0f} MB" if store.get("facts_mb") else "")
              + "; rows: "
              + ", ".join(f"{name} {count}" for name, count in store.get("rows", {}).items()) + ".", "",
              f"| query (Python's SQLite {sqlite3.sqlite_version}, on the store at the end) | plan | rows | ms (best of 3) |",
              "|---|---|---:|---:|"]
    for q in meta["plans"]:
        lines.append(f"| {q['query']} | {q['plan']} | {q['rows']} | {q['ms']:.1f} |")
    lines += ["", "Checks:", ""] + [f"- {'ok' if ok else 'FAIL'}: {name}" for name, ok in checks.items()]
    lines += ["", f"Whole run: {meta['seconds']:.0f} s. Made by `{' '.join(['python3', 'bench/dashboard.py'] + meta['argv'])}`.",
              ""]
    return "\n".join(lines)


# ----------------------------------------------------------------------------- the run
def default_binary():
    """The release build when there is one, else the debug build."""
    release = os.path.join(ROOT, ".build", "release", "survey")
    return release if os.access(release, os.X_OK) else os.path.join(ROOT, ".build", "debug", "survey")


def measure(args, meta, results, checks, work):
    data = os.path.join(work, "data")
    database = os.path.join(data, "runs.sqlite")

    # Template runs, walked as browsers would.
    server = Server(work, data).start()
    templates = []
    try:
        base = f"http://127.0.0.1:{server.port}"
        for i, (name, _, end) in enumerate(WALKS):
            known = run_ids(database) if os.path.exists(database) else set()
            walk_one(base, i)
            new = run_ids(database) - known
            if len(new) != 1:
                raise RuntimeError(f"the walk '{name}' left {len(new)} new runs in the store")
            templates.append(new.pop())
    finally:
        server.stop()
    checks[f"{len(WALKS)} runs walked over HTTP, each ending where it should"] = True
    log(f"{len(WALKS)} template runs walked; copying to {args.runs}")

    # N runs, round-robin over the templates, spread over the last `days` days.
    copies = args.runs - len(templates)
    copied, copy_s = {}, 0.0
    for j, template in enumerate(templates):
        added, seconds = copy_runs(database, {SURVEY: template}, {SURVEY: copies // len(templates) + (j < copies % len(templates))})
        copied[j] = added[SURVEY]
        copy_s += seconds
    newest = time.time() - 3600
    spread_s = spread_dates(database, args.days, newest)
    meta["store"].update(runs_copied_s=copy_s, spread_s=spread_s)
    in_store = len(run_ids(database))
    checks[f"the store holds N = {args.runs} runs ({in_store})"] = in_store == args.runs
    log(f"copied in {copy_s:.1f} s, dates spread in {spread_s:.1f} s ({os.path.getsize(database) / 1e6:.0f} MB)")

    # (a) The first request after start: the full pass over every run.
    spawned = time.time()
    server = Server(work, data).start(timeout=600)
    try:
        port, pid = server.port, server.proc.pid
        ready = time.time()
        before = status_kib(pid, "VmRSS", "VmHWM")
        hwm_reset = reset_peak(pid)
        cpu0 = cpu_seconds(pid)
        sampler = Sampler(pid)
        sampler.start()
        status, content_type, body, ms = get(port, PAGE, timeout=7200)
        answered = time.time()
        sampler.stop()
        after = status_kib(pid, "VmRSS", "VmHWM")
        if status == 404:
            raise RuntimeError(f"{PAGE} answered 404: this binary has no dashboard (built before it?)")
        if status != 200:
            raise RuntimeError(f"{PAGE} answered {status}: {body[:300]!r}")
        peak = max([kib for _, kib in sampler.samples] + [after.get("VmHWM", 0) if hwm_reset else 0])
        runs, reached, runs_csv = census(port)
        periods = runs_by_period(runs_csv)
        results["cold"] = {
            "ms": ms, "from_spawn_s": answered - spawned, "start_s": ready - spawned,
            "server_cpu_s": cpu_seconds(pid) - cpu0, "server_cpu_total_s": cpu_seconds(pid), "periods": len(periods),
            "memory": {"rss_before_kib": before.get("VmRSS"), "hwm_before_kib": before.get("VmHWM"), "hwm_was_reset": hwm_reset,
                       "peak_kib": peak, "rss_after_kib": after.get("VmRSS"), "hwm_after_kib": after.get("VmHWM"),
                       "samples": len(sampler.samples)}}
        log(f"first page after start: {ms / 1000:.1f} s ({answered - spawned:.1f} s from spawn); RSS {mib(before.get('VmRSS'))} → "
            f"peak {mib(peak)} → {mib(after.get('VmRSS'))} MiB")
        checks[f"after the first pass, runs.csv counts N = {args.runs} runs ({runs})"] = runs == args.runs
        checks[f"after the first pass, the funnel's first step reached N = {args.runs} ({reached})"] = reached == args.runs
        checks[f"the runs chart is by day, with at least {args.days - 5} days ({len(periods)})"] = \
            len(periods) >= args.days - 5 and all(re.fullmatch(r"\d{4}-\d\d-\d\d", p) for p in periods)
        checks["the server's memory was read during the first pass"] = bool(sampler.samples) and None not in (
            before.get("VmRSS"), after.get("VmRSS"))

        # (b) Warm requests: the page, filtered pages, the downloads.
        page = body.decode()
        questions = sorted(set(re.findall(rf'href="{re.escape(PAGE)}/questions/([^"/?]+)\.csv"', page)))
        pictures = set(re.findall(rf'href="{re.escape(PAGE)}/((?:questions/)?[^"?]+)\.svg"', page))
        first = datetime.date.fromtimestamp(newest) - datetime.timedelta(days=args.days // 2 + 5)
        last = first + datetime.timedelta(days=9)
        dates = f"?from={first.isoformat()}&to={last.isoformat()}"
        warm = results["warm"]
        for what, query in (("page, warm", ""), ("page, ?status=completed", "?status=completed"),
                            (f"page, ?from=…&to=… ({first} to {last}, 10 days)", dates)):
            r, _ = timed(port, PAGE + query, args.repeats)
            warm.append(dict(r, what=what))
            log(f"{what}: median {r['median_ms']:.0f} ms, max {r['max_ms']:.0f} ms")
        for name in CHARTS + [f"questions/{q}" for q in questions]:
            r, _ = timed(port, f"{PAGE}/{name}.csv", args.repeats, "text/csv")
            warm.append(dict(r, what=f"{name}.csv"))
            log(f"{name}.csv: median {r['median_ms']:.0f} ms, max {r['max_ms']:.0f} ms")
        for name in sorted(pictures):
            r, body = timed(port, f"{PAGE}/{name}.svg", args.svg_repeats, "image/svg+xml")
            warm.append(dict(r, what=f"{name}.svg"))
            if b"<svg" not in body[:300]:
                raise RuntimeError(f"{name}.svg is not an SVG picture: {body[:200]!r}")
        checks[f"every chart downloads: {len(CHARTS)} charts and {len(questions)} questions as CSV, {len(pictures)} as SVG"] = \
            len(questions) >= 4 and len(pictures) >= len(CHARTS)

        completed = runs_by_period(runs_csv)
        completed_total = sum(c.get("completed", 0) for c in completed.values())
        runs, reached, _ = census(port, "?status=completed")
        checks[f"?status=completed counts the completed runs ({runs} and {reached} reached, {completed_total} expected)"] = \
            runs == reached == completed_total
        runs, reached, filtered = census(port, dates)
        inside = {p: c for p, c in runs_by_period(runs_csv).items() if first.isoformat() <= p <= last.isoformat()}
        want = sum(c["All"] for c in inside.values())
        checks[f"?from=…&to=… counts the runs of its {len(inside)} days ({runs} and {reached} reached, {want} expected)"] = \
            runs == reached == want and set(runs_by_period(filtered)) == set(inside)

        # (c) Changes, then the next page: new runs over HTTP, and completed runs changed in the store.
        total = args.runs
        base = f"http://127.0.0.1:{port}"
        for attempt in range(1, 4):
            since = time.time() - 1
            for i in range(args.new_runs):
                walk_one(base, i)
            new = run_ids(database, since)
            early = facts_written(database, new)
            status, _, _, ms = get(port, PAGE, timeout=600)
            total += len(new)
            if status != 200:
                raise RuntimeError(f"{PAGE} answered {status} after new runs")
            if early == 0:
                break
            log(f"the background refresh wrote {early} of the new runs' facts first; again")
        results["changes"].append({"what": f"next page after {len(new)} new runs over HTTP (the incremental refresh)",
                                   "ms": ms, "runs": len(new), "attempts": attempt, "background_first": early})
        log(f"after {len(new)} new runs: {ms:.0f} ms (attempt {attempt})")
        runs, reached, _ = census(port)
        checks[f"after the new runs, runs.csv counts N + {total - args.runs} = {total} ({runs}), the funnel's first step "
               f"reached it ({reached})"] = runs == reached == total
        checks[f"the {len(new)} new runs' facts were written by the timed request, not the background"] = early == 0

        pool = [run_id for j in COMPLETED_WALKS for run_id in copied[j]]
        random.Random(2).shuffle(pool)
        count = min(args.changed, len(pool) // 3)
        for attempt in range(1, 4):
            chosen, pool = pool[:count], pool[count:]
            mood, _ = fetch(port, f"{PAGE}/questions/mood.csv", "text/csv")
            low_before = histogram_count(mood, CHANGED_MOOD)
            change_moods(database, chosen, time.time())
            early = facts_written(database, chosen)
            status, _, _, ms = get(port, PAGE, timeout=600)
            if status != 200:
                raise RuntimeError(f"{PAGE} answered {status} after changed runs")
            mood, _ = fetch(port, f"{PAGE}/questions/mood.csv", "text/csv")
            low_after = histogram_count(mood, CHANGED_MOOD)
            if early == 0:
                break
            log(f"the background refresh wrote {early} of the changed runs' facts first; again")
        results["changes"].append({"what": f"next page after {count} runs changed in the store (the incremental refresh)",
                                   "ms": ms, "runs": count, "attempts": attempt, "background_first": early})
        log(f"after {count} changed runs: {ms:.0f} ms (attempt {attempt})")
        checks[f"mood {CHANGED_MOOD} counts the {count} changed answers ({low_before} → {low_after})"] = \
            low_after - low_before == count
        checks[f"the {count} changed runs' facts were written by the timed request, not the background"] = early == 0
        runs, reached, _ = census(port)
        checks[f"after the changes, runs.csv still counts {total} ({runs}), the funnel's first step reached it ({reached})"] = \
            runs == reached == total
        r, _ = timed(port, PAGE, args.svg_repeats)
        results["after_burst"] = dict(r, what=f"page, warm, after the changes (their {count} runs asked about again, not read)")
        log(f"after the burst: median {r['median_ms']:.0f} ms")
    finally:
        code = server.stop()
        if code != 0:
            log(f"the server exited with {code} on SIGTERM")
    epoch = datetime.date(1970, 1, 1)
    meta["plans"], meta["store"]["rows"], meta["store"]["facts_mb"] = query_plans(database, (first - epoch).days, (last - epoch).days)
    meta["store"]["database_mb"] = os.path.getsize(database) / 1e6
    for q in meta["plans"]:
        log(f"{q['query']}: {q['ms']:.1f} ms, {q['rows']} rows, {q['plan']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", default=default_binary(),
                    help="the server (.build/release/survey when it exists, else .build/debug/survey)")
    ap.add_argument("--runs", type=int, default=100_000, help="runs of wellbeing-check in the store (100000)")
    ap.add_argument("--smoke", action="store_true", help="N = 2000, 5 GETs of each; the table is printed, not written")
    ap.add_argument("--out", help="where the markdown goes (bench/results/dashboard.md; nowhere with --smoke)")
    ap.add_argument("--days", type=int, default=60, help="days the runs' starts are spread over (60)")
    ap.add_argument("--repeats", type=int, default=20, help="warm GETs of the page and of each CSV (20)")
    ap.add_argument("--svg-repeats", type=int, default=5, help="GETs of each SVG, and of the page after the changes (5)")
    ap.add_argument("--new-runs", type=int, default=50, help="runs completed over HTTP before the incremental request (50)")
    ap.add_argument("--changed", type=int, default=1000, help="completed runs changed in the store (1000)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (its path is printed)")
    args = ap.parse_args()
    if args.smoke:
        args.runs, args.repeats, args.changed = 2000, 5, 200
    if args.runs < 10 * len(WALKS):
        sys.exit(f"--runs must be at least {10 * len(WALKS)}")
    out = os.path.abspath(args.out) if args.out else (None if args.smoke else os.path.join(HERE, "results", "dashboard.md"))
    args.binary = os.path.abspath(args.binary)
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"no binary at {args.binary}")
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    if subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no", "--", "Sources", "Package.swift"],
                      capture_output=True, text=True).stdout.strip():
        commit += " with uncommitted changes to Sources"
    meta = {"date": time.strftime("%Y-%m-%d %H:%M %Z"), "commit": commit, "argv": sys.argv[1:], "runs": args.runs,
            "days": args.days, "binary": os.path.relpath(args.binary, ROOT) if args.binary.startswith(ROOT) else args.binary,
            "binary_built": time.strftime("%Y-%m-%d %H:%M", time.localtime(os.path.getmtime(args.binary))),
            "debug": "/debug/" in args.binary + os.path.realpath(args.binary),
            "machine": machine_description(), "store": {}, "plans": []}
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # runs the finally blocks: the server stops
    t0 = time.time()
    results = {"cold": None, "warm": [], "changes": [], "after_burst": None}
    checks = {}
    work = tempfile.mkdtemp(prefix="survey-dashboard-bench-")
    try:
        # Copies, so that a build or an edit meanwhile changes nothing measured.
        shutil.copy2(args.binary, os.path.join(work, "survey"))
        for folder in ("Examples", "Templates", "Public"):
            shutil.copytree(os.path.join(ROOT, folder), os.path.join(work, folder))
        log(f"binary {args.binary}, N = {args.runs}, folder {work}")
        measure(args, meta, results, checks, work)
    except Exception as error:  # reported as a failed check, with what was measured
        log(f"FAILED: {type(error).__name__}: {error}")
        checks[f"the run went to the end ({type(error).__name__}: {error})"] = False
    finally:
        for server in list(started):
            server.stop()
        if args.keep:
            log(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)

    meta["seconds"] = time.time() - t0
    if results["cold"] is None:
        print(json.dumps(checks, indent=1))
        return 1
    text = table(meta, results, checks)
    print(text)
    if out:
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "w") as f:
            f.write(text)
        with open(os.path.splitext(out)[0] + ".json", "w") as f:
            json.dump({"meta": meta, "results": results, "checks": checks}, f, indent=1)
        log(f"wrote {out}")
    failed = [name for name, ok in checks.items() if not ok]
    if failed:
        log("FAILED:", "; ".join(failed))
        return 1
    log("every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
