#!/usr/bin/env python3
"""A survey's runs exported in bounded memory: 10⁵ runs through the researcher API and `survey export`.

Starts `survey serve` on loopback with a new data folder and an API token, and completes one
run of wellbeing-check and one of every-format over HTTP as a browser would (the scripted
answers of Tests/Fixtures). With the server stopped, it copies those two runs in the SQLite file
until each survey has N runs (new upper-case ids in `runs.id`, `visits.run` and the state's
`taskRunUUID`; one transaction). Then, for each N (smallest first, the same file growing):

- starts the server on that file and GETs /api/v1/surveys/{survey}/export in the wide and long
  CSV formats, reading the body in chunks while it samples the server's VmRSS every 50 ms
  (its VmHWM is reset before each export where the kernel allows, and read after it);
- checks the body byte for byte against the one expected (the one-run export with each run's
  id, in id order), its row count, and that its first and last 1000 lines parse as CSV of the
  header's width;
- stops the server and runs `survey export wellbeing-check --format csv --data DIR --output FILE`
  under /usr/bin/time -v (or getrusage), checking the file is the same CSV.

Prints a markdown table and writes it to bench/results/export.md (not with --smoke, whose single
N of 2000 takes well under a minute; --out names a file for it). Exits 1 when a check fails.
The smoke checks every body and that the memory figures were read, but does not judge them
against the bounds: 2,000 runs are too few to show memory bounded.
Only the standard library is used (and the form walker of Tests/e2e/survey_http.py).
"""
import argparse
import collections
import csv
import hashlib
import http.client
import io
import json
import math
import os
import platform
import re
import resource
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "Tests", "e2e"))
from survey_http import MAX_PAGES, Http, controls_of, field_values  # noqa: E402
from bench import free_port, terminate  # noqa: E402  (bench.py, beside this file)

TOKEN = "bench-export-token-" + "x" * 24
SURVEYS = ["wellbeing-check", "every-format"]
EXPORTS = [("wellbeing-check", "csv"), ("wellbeing-check", "long")]  # over HTTP, at every N
CLI_EXPORT = ("wellbeing-check", "csv")
CHUNK = 64 * 1024
SAMPLE_S = 0.05
PARSED_LINES = 1000
MIB = 1024 * 1024

started = []  # the processes this run started, stopped on the way out


def log(*parts):
    print(time.strftime("%H:%M:%S"), *parts, flush=True)


# ----------------------------------------------------------------------------- processes
def child_env():
    """This environment without SURVEY_* settings, so only the options given here count."""
    return {k: v for k, v in os.environ.items() if not k.startswith("SURVEY_")}


def status_kib(pid, *keys):
    """Fields of /proc/PID/status in KiB, {key: value}."""
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                name = line.split(":", 1)[0]
                if name in keys:
                    out[name] = int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        pass
    return out


def cpu_seconds(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (FileNotFoundError, ProcessLookupError):
        return 0.0


def reset_peak(pid):
    """Resets VmHWM to the current RSS (Linux ≥ 4.0); False where that is not allowed."""
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


class Server:
    """`survey serve` on a free loopback port, with the API on."""

    def __init__(self, work, data):
        self.work, self.data = work, data
        self.port = free_port()
        self.proc = None
        self.log_path = os.path.join(data, "server.log")

    def start(self, timeout=60):
        os.makedirs(self.data, exist_ok=True)
        cmd = [os.path.join(self.work, "survey"), "serve", "--host", "127.0.0.1", "--port", str(self.port),
               "--surveys", os.path.join(self.work, "Examples"), "--data", self.data, "--api-token", TOKEN,
               "--runs-per-hour", "0", "--no-access-log",
               "--templates", os.path.join(self.work, "Templates"), "--public", os.path.join(self.work, "Public")]
        with open(self.log_path, "a") as logf:
            self.proc = subprocess.Popen(cmd, cwd=self.work, env=child_env(), stdout=logf, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True)
        started.append(self)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"survey serve exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", "/")
                if conn.getresponse().status == 200:
                    conn.close()
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"survey serve did not answer within {timeout} s:\n{self.log_tail()}")

    def stop(self):
        code = terminate(self.proc)
        if self in started:
            started.remove(self)
        self.proc = None
        return code

    def log_tail(self):
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()[-3000:]
        except OSError:
            return ""


# ----------------------------------------------------------------------------- real runs
def complete_run(base_url, survey):
    """A participant's browser answering the survey's scripted answers to the done page."""
    with open(os.path.join(ROOT, "Tests", "Fixtures", f"{survey}.answers.json")) as f:
        values = field_values(json.load(f))
    client = Http(base_url)
    status, body, url = client.get(f"/surveys/{survey}")
    for _ in range(MAX_PAGES):
        if url.rstrip("/").endswith("/done"):
            return
        if status != 200:
            raise RuntimeError(f"{survey}: {url} answered {status}")
        form = controls_of(body)
        names = [n for n in form.controls if not n.startswith("_")]
        if "_csrf" not in form.hidden:
            raise RuntimeError(f"{survey}: the page at {url} has no step form")
        status, body, url = client.post_form(body, url, {n: values[n] for n in names if n in values})
    raise RuntimeError(f"{survey}: no done page after {MAX_PAGES} pages")


# ----------------------------------------------------------------------------- copying runs
def new_ids(count):
    return [str(uuid.uuid4()).upper() for _ in range(count)]


def copy_runs(database, templates, counts):
    """Adds counts[survey] copies of the survey's template run (its id in `templates`) with new
    ids, in one transaction. Returns {survey: [the new ids]} and the seconds it took."""
    began = time.time()
    con = sqlite3.connect(database, timeout=60, isolation_level=None)
    try:
        con.execute("PRAGMA synchronous = OFF")
        con.execute("PRAGMA cache_size = -262144")
        columns = [r[1] for r in con.execute("PRAGMA table_info(runs)")]
        insert_run = f"INSERT INTO runs ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        insert_visit = "INSERT INTO visits (run, idx, data) VALUES (?, ?, ?)"
        added = {}
        con.execute("BEGIN")
        for survey, template in templates.items():
            row = dict(zip(columns, con.execute("SELECT * FROM runs WHERE id = ?", (template,)).fetchone()))
            visits = con.execute("SELECT idx, data FROM visits WHERE run = ? ORDER BY idx", (template,)).fetchall()
            state = bytes(row["state"])
            if state.count(template.encode()) != 1:
                raise RuntimeError(f"the state of {template} does not name its id once: {state[:300]!r}")
            ids = sorted(new_ids(counts[survey]))  # keys in order: the B-trees grow at their end

            def runs():
                for run_id in ids:
                    row.update(id=run_id, state=state.replace(template.encode(), run_id.encode()),
                               resume_code=None, resume_token=None)
                    yield tuple(row[c] for c in columns)

            con.executemany(insert_run, runs())
            con.executemany(insert_visit, ((run_id, idx, data) for run_id in ids for idx, data in visits))
            added[survey] = ids
        con.execute("COMMIT")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        con.close()
    return added, time.time() - began


def page_query_plan(database, survey):
    """SQLite's plan (this Python's SQLite) and time for a page of the export's query, first
    page and one from the middle."""
    con = sqlite3.connect(database, timeout=60)
    try:
        sql = "SELECT * FROM runs WHERE survey = ? AND id > ? ORDER BY id LIMIT 500"
        plan = "; ".join(r[-1] for r in con.execute("EXPLAIN QUERY PLAN " + sql, (survey, "")))
        middle = con.execute("SELECT id FROM runs WHERE survey = ? ORDER BY id LIMIT 1 OFFSET "
                             "(SELECT count(*) / 2 FROM runs WHERE survey = ?)", (survey, survey)).fetchone()[0]
        times = []
        for after in ("", middle):
            began = time.perf_counter()
            con.execute(sql, (survey, after)).fetchall()
            times.append((time.perf_counter() - began) * 1000)
        return plan, times
    finally:
        con.close()


# ----------------------------------------------------------------------------- expected exports
class Expected:
    """An export of N copies of one run: its head, and the template run's piece with the id to
    replace; the body is the head then each id's piece, in id order."""

    def __init__(self, one_run_body, template_id, fmt):
        self.format = fmt
        header_end = one_run_body.index(b"\n") + 1
        self.head, self.piece = one_run_body[:header_end], one_run_body[header_end:]
        self.template = template_id.lower().encode()
        if not self.piece or self.template not in self.piece:
            raise RuntimeError(f"the one-run {fmt} export does not name its run: {one_run_body[:500]!r}")
        self.rows_per_run = len(list(csv.reader(io.StringIO(self.piece.decode(), newline=""))))
        self.lines_per_run = self.piece.count(b"\n")
        self.width = len(next(csv.reader(io.StringIO(self.head.decode("utf-8-sig"), newline=""))))

    def digest(self, ids):
        """(bytes, sha256) of the export of these runs."""
        h = hashlib.sha256(self.head)
        size = len(self.head)
        for run_id in sorted(i.lower() for i in ids):
            piece = self.piece.replace(self.template, run_id.encode())
            h.update(piece)
            size += len(piece)
        return size, h.hexdigest()


def lines_of(data):
    """The lines of data that end in a line feed, each with it (CRLF records end in one)."""
    return [line + b"\n" for line in data.split(b"\n")[:-1]]


def parse_ends(head_lines, tail_lines, expected, runs):
    """Problems found parsing the first and last lines of an export as CSV (whole runs of it)."""
    problems = []
    whole = min(runs, math.ceil(PARSED_LINES / expected.rows_per_run))
    for where, lines, skip in (("first", head_lines, 1), ("last", tail_lines, 0)):
        text = b"".join(lines[:skip + whole * expected.lines_per_run] if where == "first"
                        else lines[-whole * expected.lines_per_run:]).decode("utf-8")
        try:
            records = list(csv.reader(io.StringIO(text, newline=""), strict=True))
        except csv.Error as error:
            problems.append(f"{where} lines: {error}")
            continue
        records = records[skip:]
        if len(records) != whole * expected.rows_per_run:
            problems.append(f"{where} lines: {len(records)} records, {whole * expected.rows_per_run} expected")
        bad = [r for r in records if len(r) != expected.width or not re.fullmatch(r"[0-9a-f-]{36}", r[0])]
        if bad:
            problems.append(f"{where} lines: {len(bad)} records of another width or without a run id, e.g. {bad[0][:4]}")
    return problems


# ----------------------------------------------------------------------------- measuring
class Sampler(threading.Thread):
    """VmRSS of a process every 50 ms until stopped."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.samples, self.stopping = pid, [], threading.Event()

    def run(self):
        while not self.stopping.is_set():
            rss = status_kib(self.pid, "VmRSS").get("VmRSS")
            if rss:
                self.samples.append((time.time(), rss))
            self.stopping.wait(SAMPLE_S)

    def stop(self):
        self.stopping.set()
        self.join()


def http_export(server, survey, fmt, expected, size, digest, runs):
    """GETs one export while sampling the server's memory; returns its measurements and problems."""
    pid = server.proc.pid
    time.sleep(0.5)
    before = status_kib(pid, "VmRSS", "VmHWM")
    peak_reset = reset_peak(pid)
    cpu0 = cpu_seconds(pid)
    sampler = Sampler(pid)
    sampler.start()
    began = time.time()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=600)
    conn.request("GET", f"/api/v1/surveys/{survey}/export?format={fmt}", headers={"Authorization": f"Bearer {TOKEN}"})
    response = conn.getresponse()
    h, got, newlines = hashlib.sha256(), 0, 0
    head, head_lines = [], 0
    tail, tail_lines = collections.deque(), 0  # (chunk, its line ends), enough for the last lines parsed
    progress = []  # (seconds, bytes) per chunk
    want_lines = 1 + math.ceil(PARSED_LINES / expected.rows_per_run) * expected.lines_per_run + 1
    while True:
        chunk = response.read(CHUNK)
        if not chunk:
            break
        h.update(chunk)
        got += len(chunk)
        count = chunk.count(b"\n")
        newlines += count
        progress.append((time.time() - began, got))
        if head_lines < want_lines:
            head.append(chunk)
            head_lines += count
        tail.append((chunk, count))
        tail_lines += count
        while tail_lines - tail[0][1] > want_lines:
            tail_lines -= tail.popleft()[1]
    seconds = time.time() - began
    first_byte = progress[0][0] if progress else seconds
    status, content_type = response.status, response.getheader("Content-Type", "")
    conn.close()
    sampler.stop()
    cpu = cpu_seconds(pid) - cpu0
    time.sleep(1.0)
    after = status_kib(pid, "VmRSS", "VmHWM")
    during = max([kib for _, kib in sampler.samples] or [0])
    problems = []
    if status != 200:
        problems.append(f"status {status}: {b''.join(head)[:300]!r}")
    if not content_type.startswith("text/csv"):
        problems.append(f"Content-Type {content_type!r}")
    # rows: the header and each run's, counted by line ends (a run's rows take the same lines in each)
    rows = 1 + (newlines - 1) // expected.lines_per_run * expected.rows_per_run
    expected_rows = 1 + runs * expected.rows_per_run
    if newlines != 1 + runs * expected.lines_per_run or rows != expected_rows:
        problems.append(f"{rows} rows ({newlines} lines), {expected_rows} expected")
    if (got, h.hexdigest()) != (size, digest):
        problems.append(f"the body ({got} bytes) is not the export expected ({size} bytes)")
    if status == 200:
        problems += parse_ends(lines_of(b"".join(head)), lines_of(b"".join(c for c, _ in tail)), expected, runs)
    # the pace of the first and last tenth of the body: paging that slows as it goes shows here
    def pace(lo, hi):
        inside = [(t, b) for t, b in progress if lo * got <= b <= hi * got]
        if len(inside) < 2 or inside[-1][0] == inside[0][0]:
            return None
        return (inside[-1][1] - inside[0][1]) / (inside[-1][0] - inside[0][0]) / MIB
    return {
        "via": "HTTP", "survey": survey, "format": fmt, "runs": runs, "seconds": round(seconds, 2),
        "first_byte_s": round(first_byte, 3), "bytes": got, "rows": rows,
        "rows_expected": expected_rows, "server_cpu_s": round(cpu, 2),
        "pace_first_mib_s": pace(0.0, 0.1), "pace_last_mib_s": pace(0.9, 1.0),
        "rss_before_kib": before.get("VmRSS"), "hwm_before_kib": before.get("VmHWM"),
        "rss_peak_sampled_kib": during, "hwm_after_kib": after.get("VmHWM"), "hwm_was_reset": peak_reset,
        "rss_after_kib": after.get("VmRSS"), "samples": len(sampler.samples),
        "growth_kib": max(during, after.get("VmHWM", 0) if peak_reset else 0) - before.get("VmRSS", 0),
        "problems": problems,
    }


def cli_export(work, data, survey, fmt, output, size, digest, runs):
    """`survey export` to a file, under /usr/bin/time -v when there is one."""
    cmd = [os.path.join(work, "survey"), "export", survey, "--format", fmt, "--data", data,
           "--surveys", os.path.join(work, "Examples"), "--output", output]
    timer = shutil.which("time", path="/usr/bin:/bin")
    if timer:
        cmd = [timer, "-v"] + cmd
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    began = time.time()
    done = subprocess.run(cmd, cwd=work, env=child_env(), capture_output=True, text=True, stdin=subprocess.DEVNULL)
    seconds = time.time() - began
    problems = []
    max_rss = None
    if timer:
        found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
        max_rss = int(found.group(1)) if found else None
        how = "/usr/bin/time -v"
    else:
        # the largest of all children so far: right when this is the largest child
        max_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        how = "getrusage" + (" (an earlier child was larger)" if max_rss == children_before else "")
    if done.returncode != 0:
        problems.append(f"exit {done.returncode}: {done.stderr[-500:]}")
    got, h = 0, hashlib.sha256()
    if os.path.exists(output):
        with open(output, "rb") as f:
            while chunk := f.read(1 << 20):
                got += len(chunk)
                h.update(chunk)
        os.remove(output)
    if (got, h.hexdigest()) != (size, digest):
        problems.append(f"the file ({got} bytes) is not the export expected ({size} bytes)")
    return {"via": "CLI", "survey": survey, "format": fmt, "runs": runs, "seconds": round(seconds, 2), "bytes": got,
            "max_rss_kib": max_rss, "measured_by": how, "problems": problems}


# ----------------------------------------------------------------------------- report
def mib(kib):
    return "–" if kib is None else f"{kib / 1024:.1f}"


def table(meta, results, checks):
    lines = [f"# Export of a survey's runs in bounded memory", "",
             f"{meta['date']} · commit {meta['commit']} · binary {meta['binary']} (built {meta['binary_built']}) · "
             f"{meta['machine']}", "",
             "Each survey holds N runs (copies of one real run); the server's store reads them 500 at a time. "
             "Server RSS: VmRSS before the request, the peak while it ran (the largest of VmRSS sampled every "
             f"50 ms and VmHWM, reset before the request{'' if meta['hwm_reset'] else ' — not allowed here, so sampled only'}), "
             "VmRSS a second after; growth is the peak less the RSS before. The CLI's is its maximum RSS.", "",
             "| N | export | via | time s | µs / run | MB | rows | RSS before MiB | peak MiB | after MiB | growth MiB |",
             "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        per_run = f"{r['seconds'] / r['runs'] * 1e6:.0f}"
        if r["via"] == "HTTP":
            peak = max(r["rss_peak_sampled_kib"], r["hwm_after_kib"] if r["hwm_was_reset"] else 0)
            lines.append(f"| {r['runs']} | {r['survey']} {r['format']} | HTTP | {r['seconds']:.1f} | {per_run} | "
                         f"{r['bytes'] / 1e6:.1f} | {r['rows']} | {mib(r['rss_before_kib'])} | {mib(peak)} | "
                         f"{mib(r['rss_after_kib'])} | {mib(r['growth_kib'])} |")
        else:
            lines.append(f"| {r['runs']} | {r['survey']} {r['format']} | CLI | {r['seconds']:.1f} | {per_run} | "
                         f"{r['bytes'] / 1e6:.1f} | | | {mib(r['max_rss_kib'])} | | |")
    lines += ["", "| N | runs copied in s | page query plan (Python's SQLite " + sqlite3.sqlite_version
              + ") | first / middle page ms | HTTP first body byte s (csv / long) | pace first / last tenth of the body MiB/s (csv · long) | server CPU s (csv / long) |",
              "|---:|---:|---|---:|---:|---:|---:|"]
    for step in meta["steps"]:
        http_runs = [r for r in results if r["via"] == "HTTP" and r["runs"] == step["runs"]]
        fb = " / ".join(f"{r['first_byte_s']:.2f}" for r in http_runs)
        pace = " · ".join(f"{r['pace_first_mib_s'] or 0:.1f} / {r['pace_last_mib_s'] or 0:.1f}" for r in http_runs)
        cpu = " / ".join(f"{r['server_cpu_s']:.1f}" for r in http_runs)
        lines.append(f"| {step['runs']} | {step['copy_s']:.1f} | {step['plan']} | "
                     f"{step['page_ms'][0]:.1f} / {step['page_ms'][1]:.1f} | {fb} | {pace} | {cpu} |")
    lines += ["", "Checks:", ""] + [f"- {'ok' if ok else 'FAIL'}: {name}" for name, ok in checks.items()]
    lines += ["", f"Whole run: {meta['seconds']:.0f} s. Made by `{' '.join(['python3', 'bench/export.py'] + meta['argv'])}`.", ""]
    return "\n".join(lines)


# Why the smoke does not judge memory: its exports are too small to show it bounded, and their
# growth is mostly what a server just started still settles (code paged in, caches, arenas),
# which on a busy machine depends on how far it got before the request.
NOT_JUDGED = "not judged in the smoke: 2,000 runs are too few to show memory bounded"


def judge(results, args, walked):
    checks = {"one run of each survey completed over HTTP": walked}
    for r in results:
        name = f"N={r['runs']} {r['survey']} {r['format']} via {r['via']}"
        checks[f"{name}: the export expected" + (f" ({'; '.join(r['problems'])})" if r["problems"] else "")] = not r["problems"]
        if r["via"] == "HTTP" and args.smoke:
            # the figures the full run judges were read: RSS before, sampled during, and after
            checks[f"{name}: server RSS read ({r['samples']} samples; grew {mib(r['growth_kib'])} MiB, {NOT_JUDGED})"] = \
                r["samples"] > 0 and None not in (r["rss_before_kib"], r["rss_after_kib"])
        elif r["via"] == "HTTP":
            checks[f"{name}: server RSS grew {mib(r['growth_kib'])} MiB ≤ {args.max_growth_mib} MiB"] = \
                r["growth_kib"] <= args.max_growth_mib * 1024
        elif args.smoke:
            checks[f"{name}: CLI max RSS read ({mib(r['max_rss_kib'])} MiB, {NOT_JUDGED})"] = bool(r["max_rss_kib"])
        elif r["max_rss_kib"] is not None:
            checks[f"{name}: CLI max RSS {mib(r['max_rss_kib'])} MiB ≤ {args.max_cli_mib} MiB"] = \
                r["max_rss_kib"] <= args.max_cli_mib * 1024
    sizes = sorted({r["runs"] for r in results})
    if len(sizes) > 1:
        small, large = sizes[0], sizes[-1]
        for survey, fmt, via in sorted({(r["survey"], r["format"], r["via"]) for r in results}):
            def peak(n):
                r = next(x for x in results if (x["runs"], x["survey"], x["format"], x["via"]) == (n, survey, fmt, via))
                return r["growth_kib"] if via == "HTTP" else r["max_rss_kib"]
            a, b = peak(small), peak(large)
            if a is None or b is None:
                continue
            what = "server RSS growth" if via == "HTTP" else "CLI max RSS"
            checks[f"{survey} {fmt} via {via}: {what} at N={large} ({mib(b)} MiB) within {args.slack_mib} MiB of "
                   f"N={small} ({mib(a)} MiB)"] = b <= a + args.slack_mib * 1024
    return checks


# ----------------------------------------------------------------------------- main
def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build", "debug", "survey"))
    ap.add_argument("--runs", type=int, default=100_000, help="runs of each survey at the largest size (100000)")
    ap.add_argument("--compare", type=int, nargs="*", default=[10_000], metavar="N",
                    help="smaller sizes measured first, to show memory does not grow with N (10000)")
    ap.add_argument("--smoke", action="store_true", help="N = 2000 only; the table is printed, not written")
    ap.add_argument("--out", help="where the markdown goes (bench/results/export.md; nowhere with --smoke)")
    ap.add_argument("--max-growth-mib", type=float, default=64, help="server RSS growth allowed during an export")
    ap.add_argument("--max-cli-mib", type=float, default=256, help="maximum RSS allowed to `survey export`")
    ap.add_argument("--slack-mib", type=float, default=16,
                    help="how much more memory the largest N may take than the smallest")
    ap.add_argument("--wait", type=float, default=0, help="seconds to wait for the binary to appear (0)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (its path is printed)")
    args = ap.parse_args()
    if args.smoke:
        args.runs, args.compare = 2000, []
    sizes = sorted({n for n in args.compare + [args.runs] if 0 < n <= args.runs})
    out = os.path.abspath(args.out) if args.out else (None if args.smoke else os.path.join(HERE, "results", "export.md"))
    args.binary = os.path.abspath(args.binary)
    waited = time.time() + args.wait
    while not os.access(args.binary, os.X_OK):
        if time.time() >= waited:
            sys.exit(f"no binary at {args.binary}")
        log(f"waiting for {args.binary}")
        time.sleep(10)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    if subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no", "--", "Sources", "Package.swift"],
                      capture_output=True, text=True).stdout.strip():
        commit += " with uncommitted changes to Sources"
    with open("/proc/cpuinfo") as f:
        model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "unknown CPU")
    meta = {"date": time.strftime("%Y-%m-%d %H:%M %Z"), "commit": commit, "argv": sys.argv[1:],
            "binary": os.path.relpath(args.binary, ROOT) if args.binary.startswith(ROOT) else args.binary,
            "binary_built": time.strftime("%Y-%m-%d %H:%M", time.localtime(os.path.getmtime(args.binary))),
            "machine": f"{os.cpu_count()} × {model}, Linux {platform.release()}", "steps": [], "hwm_reset": True}
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # runs the finally blocks: the server stops
    t0 = time.time()
    results, walked = [], False
    work = tempfile.mkdtemp(prefix="survey-export-bench-")
    try:
        # Copies, so that a build or an edit meanwhile changes nothing measured.
        shutil.copy2(args.binary, os.path.join(work, "survey"))
        for folder in ("Examples", "Templates", "Public"):
            shutil.copytree(os.path.join(ROOT, folder), os.path.join(work, folder))
        data = os.path.join(work, "data")
        database = os.path.join(data, "runs.sqlite")
        log(f"binary {args.binary}, sizes {sizes}, folder {work}")

        server = Server(work, data).start()
        try:
            for survey in SURVEYS:
                complete_run(f"http://127.0.0.1:{server.port}", survey)
            walked = True
            expected = {}
            for survey, fmt in EXPORTS + [CLI_EXPORT]:
                conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
                conn.request("GET", f"/api/v1/surveys/{survey}/export?format={fmt}", headers={"Authorization": f"Bearer {TOKEN}"})
                response = conn.getresponse()
                body = response.read()
                conn.close()
                if response.status != 200:
                    raise RuntimeError(f"the one-run {survey} {fmt} export answered {response.status}: {body[:300]!r}")
                expected[(survey, fmt)] = body
        finally:
            server.stop()
        con = sqlite3.connect(database)
        templates = dict(con.execute("SELECT survey, id FROM runs WHERE finish_reason = 'completed'").fetchall())
        con.close()
        if sorted(templates) != sorted(SURVEYS):
            raise RuntimeError(f"completed runs in the store: {templates}")
        for key, body in list(expected.items()):
            expected[key] = Expected(body, templates[key[0]], key[1])
        ids = {s: [templates[s]] for s in SURVEYS}
        log("one run of each survey completed; copying")

        for n in sizes:
            added, copy_s = copy_runs(database, templates, {s: n - len(ids[s]) for s in SURVEYS})
            for s in SURVEYS:
                ids[s] += added[s]
            plan, page_ms = page_query_plan(database, EXPORTS[0][0])
            meta["steps"].append({"runs": n, "copy_s": copy_s, "plan": plan, "page_ms": page_ms,
                                  "database_mb": os.path.getsize(database) / 1e6})
            log(f"N={n}: copied in {copy_s:.1f} s ({os.path.getsize(database) / 1e6:.0f} MB); page query {page_ms[0]:.1f} / "
                f"{page_ms[1]:.1f} ms: {plan}")
            server = Server(work, data).start()
            try:
                for survey, fmt in EXPORTS:
                    size, digest = expected[(survey, fmt)].digest(ids[survey])
                    r = http_export(server, survey, fmt, expected[(survey, fmt)], size, digest, n)
                    meta["hwm_reset"] &= r["hwm_was_reset"]
                    results.append(r)
                    log(f"N={n} {survey} {fmt} HTTP: {r['seconds']} s, {r['bytes'] / 1e6:.1f} MB, {r['rows']} rows, RSS "
                        f"{mib(r['rss_before_kib'])} → peak {mib(max(r['rss_peak_sampled_kib'], r['hwm_after_kib'] or 0))} → "
                        f"{mib(r['rss_after_kib'])} MiB" + (f"; PROBLEMS: {r['problems']}" if r["problems"] else ""))
            finally:
                code = server.stop()
                if code != 0:
                    log(f"the server exited with {code} on SIGTERM")
            survey, fmt = CLI_EXPORT
            size, digest = expected[(survey, fmt)].digest(ids[survey])
            r = cli_export(work, data, survey, fmt, os.path.join(work, "export.csv"), size, digest, n)
            results.append(r)
            log(f"N={n} {survey} {fmt} CLI: {r['seconds']} s, max RSS {mib(r['max_rss_kib'])} MiB ({r['measured_by']})"
                + (f"; PROBLEMS: {r['problems']}" if r["problems"] else ""))
    except Exception as error:  # reported as a failed check, with the table of what was measured
        log(f"FAILED: {type(error).__name__}: {error}")
        results.append({"via": "run", "runs": 0, "survey": "-", "format": "-", "problems": [str(error)]})
    finally:
        for server in list(started):
            server.stop()
        if args.keep:
            log(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)

    meta["seconds"] = time.time() - t0
    broken = [r for r in results if r["via"] == "run"]
    results = [r for r in results if r["via"] != "run"]
    checks = judge(results, args, walked)
    for r in broken:
        checks[f"the run went to the end ({r['problems'][0]})"] = False
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
