#!/usr/bin/env python3
"""The survey server beside its peers, in one run on this machine.

Starts the release build of `survey serve` on loopback (SQLite, and PostgreSQL for the
replica case), nginx serving the very bytes of the project's step page, and Flask + Jinja2 on
gunicorn from the peers folder (oTree with --otree), then loads each with wrk for a fixed time
per case, several repetitions interleaved so that other load on the machine hits every case
alike. For each run it records wrk's req/s, p50 and p99, the server's own CPU time per request
(utime + stime from /proc) and its RSS, and checks the answers (status classes from the Lua
script, completed runs in the store).

Writes bench/results/results.json, bench/results/results.md and bench/results/raw/*.txt.
Only the standard library is used. Run it through bench/run, which installs wrk and nginx and
builds the binary.
"""
import argparse
import base64
import hashlib
import hmac
import http.client
import json
import os
import platform
import re
import resource
import secrets
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import urllib.parse

import headline
from headline import ratio
import openloop

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LUA = os.path.join(HERE, "lua", "participants.lua")
CLK = os.sysconf("SC_CLK_TCK")
SECRET = "bench-secret-" + "x" * 40
COOKIE = "survey_session"

started = []  # (name, stop) of every process this run started, stopped in reverse order


def log(*parts):
    print(time.strftime("%H:%M:%S"), *parts, flush=True)


# ----------------------------------------------------------------------------- /proc readings
def children(pid):
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]


def cpu_seconds(pids):
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (FileNotFoundError, ProcessLookupError, IndexError):
            pass
    return total / CLK


def memory_kib(pids):
    rss = peak = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        rss += int(line.split()[1])
                    elif line.startswith("VmHWM:"):
                        peak += int(line.split()[1])
        except FileNotFoundError:
            pass
    return rss, peak


def machine_cpu():
    """(busy, irq + softirq, total) CPU-seconds over all cores since boot."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return (v[0] + v[1] + v[2]) / CLK, (v[5] + v[6]) / CLK, sum(v[:8]) / CLK


def machine_description():
    model = "unknown CPU"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        mem = int(f.readline().split()[1]) // (1024 * 1024)
    return f"{os.cpu_count()} × {model}, {mem} GiB, Linux {platform.release()}"


def terminate(proc, grace=20):
    """SIGTERM (a graceful shutdown), then SIGKILL if it is not over within `grace` seconds;
    the exit status."""
    if proc and proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.returncode if proc else None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port}")


# ----------------------------------------------------------------------------- sessions
def b64url(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def mac(purpose, value):
    return b64url(hmac.new(SECRET.encode(), f"{purpose}:{value}".encode(), hashlib.sha256).digest())


def new_session():
    """A session as the server makes one: (session id, cookie value); the cookie carries the
    time it was issued."""
    sid = b64url(secrets.token_bytes(16))
    signed = f"{sid}.{int(time.time())}"
    return sid, f"{signed}.{mac('session', signed)}"


def run_token(sid, run_id):
    """The CSRF token of forms that change the run `run_id` (upper-case UUID) of session `sid`."""
    return mac("csrf", f"{sid}:{run_id.upper()}")


def fresh_tokens(sid):
    """For a session with no run yet: the token of its first page (shown now), and the token of
    the run its first post starts (the run's id is derived from the session and that time)."""
    shown = str(int(time.time()))
    digest = bytearray(hmac.new(SECRET.encode(), f"run:{sid}:{shown}".encode(), hashlib.sha256).digest()[:16])
    digest[6] = (digest[6] & 0x0F) | 0x40
    digest[8] = (digest[8] & 0x3F) | 0x80
    run_id = str(uuid.UUID(bytes=bytes(digest))).upper()
    return f"t{shown}.{mac('page', sid + ':' + shown)}", run_token(sid, run_id)


# ----------------------------------------------------------------------------- surveys
def write_surveys(folder, sizes):
    os.makedirs(folder, exist_ok=True)
    choices = ["Very dissatisfied", "Dissatisfied", "Neither satisfied nor dissatisfied", "Satisfied", "Very satisfied"]
    for n in sizes:
        steps = [{
            "identifier": f"q{i}",
            "type": "question",
            "title": f"Question {i} of the workplace survey",
            "text": "Think about the last four weeks at your main job, including workload, schedule and equipment.",
            "answerFormat": {"type": "textChoice", "style": "singleChoice",
                             "choices": [{"text": text, "value": str(v + 1)} for v, text in enumerate(choices)]},
        } for i in range(1, n + 1)]
        survey = {"identifier": f"bench-{n}", "title": f"Workplace survey ({n} questions)", "steps": steps}
        with open(os.path.join(folder, f"bench-{n}.json"), "w") as f:
            json.dump(survey, f)


# ----------------------------------------------------------------------------- servers
class Survey:
    """One `survey serve` process."""

    def __init__(self, name, binary, surveys, data, store=None, port=None):
        self.name, self.port = name, port or free_port()
        os.makedirs(data, exist_ok=True)
        self.database = os.path.join(data, "runs.sqlite")
        # Every simulated participant comes from 127.0.0.1, so the limit on new runs per client is off.
        cmd = [binary, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--surveys", surveys, "--data", data,
               "--runs-per-hour", "0",
               "--templates", os.path.join(ROOT, "Templates"), "--public", os.path.join(ROOT, "Public")]
        if store:
            cmd += ["--store", store]
        self.cmd = cmd
        self.proc = None
        self.log_path = os.path.join(data, "server.log")

    def start(self):
        env = dict(os.environ, SURVEY_SECRET=SECRET)
        with open(self.log_path, "a") as logf:
            self.proc = subprocess.Popen(self.cmd, cwd=ROOT, env=env, stdout=logf, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True)
        started.append((self.name, self.stop))
        wait_port(self.port)
        return self

    def stop(self):
        terminate(self.proc)
        self.proc = None

    def pids(self):
        return [self.proc.pid] if self.proc else []


class Participant:
    """A browser walking a survey over one keep-alive connection (set-up only, not measured)."""

    def __init__(self, port, survey):
        self.sid, self.cookie = new_session()
        self.csrf = None
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.path = f"/surveys/{survey}"

    def request(self, method, body=None):
        headers = {"Cookie": f"{COOKIE}={self.cookie}"}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.conn.request(method, self.path, body=body, headers=headers)
        response = self.conn.getresponse()
        return response.status, response.read()

    def page(self):
        status, body = self.request("GET")
        if status != 200:
            raise RuntimeError(f"GET {self.path} answered {status}")
        self.csrf = re.search(rb'name="_csrf" value="([^"]*)"', body).group(1).decode()
        return body

    def answer(self, k):
        self.page()  # the page's token: the first answer starts the run, and the token follows the run
        status, _ = self.request("POST", urllib.parse.urlencode({"_csrf": self.csrf, f"q{k}": str(k % 5 + 1), "_action": "next"}))
        if status != 303:
            raise RuntimeError(f"POST q{k} answered {status}")


def walk(port, survey, answers):
    """A participant whose run has answered the first `answers` questions; returns it."""
    p = Participant(port, survey)
    for k in range(1, answers + 1):
        p.answer(k)
    return p


# ----------------------------------------------------------------------------- populating a store quickly
def clone_runs(database, template_session, sessions, batch=50_000):
    """Copies the template's run (found by its session) once per (run id, session) given (None:
    a new id and a random session nobody will use). Runs in one transaction per batch."""
    con = sqlite3.connect(database, timeout=60)
    try:
        con.execute("PRAGMA synchronous = OFF")
        row = con.execute("SELECT id FROM runs WHERE session = ? ORDER BY updated_at DESC LIMIT 1", (template_session,)).fetchone()
        if row is None:
            raise RuntimeError("template run not found")
        template = row[0]
        columns = [r[1] for r in con.execute("PRAGMA table_info(runs)")]
        visits = con.execute("SELECT name FROM sqlite_master WHERE name = 'visits'").fetchone() is not None
        copied = [c for c in columns if c not in ("id", "session", "state")]
        insert_run = (f"INSERT INTO runs (id, session, state, {', '.join(copied)}) "
                      f"SELECT ?, ?, replace(state, ?, ?), {', '.join(copied)} FROM runs WHERE id = ?")
        insert_visits = "INSERT INTO visits SELECT ?, idx, data FROM visits WHERE run = ? ORDER BY idx"
        pending = []

        def flush():
            ids = sorted(pending)  # keys in order: the B-trees grow at their end
            con.execute("BEGIN")
            con.executemany(insert_run, ((i, s, template, i, template) for i, s in ids))
            if visits:
                con.executemany(insert_visits, ((i, template) for i, _ in ids))
            con.execute("COMMIT")
            pending.clear()

        for pair in sessions:
            run_id, session = pair or (str(uuid.uuid4()).upper(), b64url(secrets.token_bytes(16)))
            pending.append((run_id, session))
            if len(pending) >= batch:
                flush()
        if pending:
            flush()
    finally:
        con.close()


def completed_runs(database):
    con = sqlite3.connect(database, timeout=60)
    try:
        return con.execute("SELECT count(*) FROM runs WHERE finish_reason = 'completed'").fetchone()[0]
    finally:
        con.close()


def participants_file(path, positioned, fresh):
    """positioned: [(cookie, csrf, answered)]; fresh: how many new sessions follow them, each
    with its first page's token and the token of the run its first answer starts."""
    with open(path, "w") as f:
        for cookie, csrf, answered in positioned:
            f.write(f"{cookie} {csrf} {answered}\n")
        for _ in range(fresh):
            sid, cookie = new_session()
            first, then = fresh_tokens(sid)
            f.write(f"{cookie} {first} - {then}\n")


def warm(port, survey, positioned, connections=4):
    """Shows each positioned participant their page once, as their browser did before the
    load starts, so a run measures answering, not the first read of a run from disk."""
    def show(chunk):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        for cookie, _, _ in chunk:
            conn.request("GET", f"/surveys/{survey}", headers={"Cookie": f"{COOKIE}={cookie}"})
            response = conn.getresponse()
            response.read()
            if response.status != 200:
                raise RuntimeError(f"warming {survey} answered {response.status}")
        conn.close()
    threads = [threading.Thread(target=show, args=(positioned[i::connections],)) for i in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def positioned_pool(server, survey, questions, count, depth):
    """`count` participants whose runs have answered `depth` questions: one walked over HTTP,
    the others copies of its run under their own sessions. The server is restarted around the
    copy so that nothing it holds in memory is stale."""
    template = walk(server.port, survey, depth)
    template.conn.close()
    sessions = [(str(uuid.uuid4()).upper(), *new_session()) for _ in range(count)]
    server.stop()
    clone_runs(server.database, template.sid, [(run_id, sid) for run_id, sid, _ in sessions])
    server.start()
    return [(cookie, run_token(sid, run_id), depth) for run_id, sid, cookie in sessions]


# ----------------------------------------------------------------------------- peers
class Nginx:
    def __init__(self, folder, page):
        self.folder, self.port = folder, free_port()
        os.makedirs(os.path.join(folder, "logs"), exist_ok=True)
        os.makedirs(os.path.join(folder, "tmp"), exist_ok=True)
        with open(os.path.join(folder, "step.html"), "wb") as f:
            f.write(page)
        # the peers' configuration (../shared/peers/nginx/nginx.conf) with this run's paths
        conf = f"""daemon on;
worker_processes auto;
pid logs/nginx.pid;
error_log logs/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 100000;
    keepalive_timeout 65;
    client_body_temp_path tmp/body;
    proxy_temp_path tmp/proxy;
    fastcgi_temp_path tmp/fastcgi;
    uwsgi_temp_path tmp/uwsgi;
    scgi_temp_path tmp/scgi;
    types {{ text/html html; }}
    default_type application/octet-stream;
    server {{
        listen 127.0.0.1:{self.port};
        root {folder};
        location = /step.html {{ }}
        location / {{ return 404; }}
    }}
}}
"""
        self.conf = os.path.join(folder, "nginx.conf")
        with open(self.conf, "w") as f:
            f.write(conf)
        self.master = None

    def start(self):
        subprocess.run(["nginx", "-p", self.folder, "-c", self.conf], check=True)
        started.append(("nginx", self.stop))
        wait_port(self.port)
        time.sleep(0.3)
        with open(os.path.join(self.folder, "logs", "nginx.pid")) as f:
            self.master = int(f.read())
        return self

    def stop(self):
        if self.master:
            try:
                os.kill(self.master, signal.SIGQUIT)
            except ProcessLookupError:
                pass
            for _ in range(50):
                if not os.path.exists(f"/proc/{self.master}"):
                    break
                time.sleep(0.1)
            self.master = None

    def pids(self):
        return [self.master] + children(self.master) if self.master else []


class Floor:
    """bench/floor: Hummingbird with one route and no middleware, serving the step page's bytes."""

    def __init__(self, binary, folder, page):
        self.binary, self.port = binary, free_port()
        os.makedirs(folder, exist_ok=True)
        self.page = os.path.join(folder, "step.html")
        with open(self.page, "wb") as f:
            f.write(page)
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen([self.binary, str(self.port), self.page], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        started.append(("floor", self.stop))
        wait_port(self.port)
        return self

    def stop(self):
        terminate(self.proc)

    def pids(self):
        return [self.proc.pid] if self.proc and self.proc.poll() is None else []


class Flask:
    """The peers' Flask + Jinja2 baseline on gunicorn -w 2 (sync workers), their headline row."""

    def __init__(self, peers, venv, folder):
        self.app = os.path.join(peers, "flask_app")
        self.venv, self.folder, self.port = venv, folder, free_port()
        self.proc = None

    def start(self):
        os.makedirs(self.folder, exist_ok=True)
        env = dict(os.environ, STRICT="0", N_RUNS="2000")
        cmd = [os.path.join(self.venv, "bin", "gunicorn"), "-w", "2", "-b", f"127.0.0.1:{self.port}", "-k", "sync",
               "--pid", os.path.join(self.folder, "gunicorn.pid"), "--no-control-socket", "app:app"]
        with open(os.path.join(self.folder, "gunicorn.log"), "w") as logf:
            self.proc = subprocess.Popen(cmd, cwd=self.app, env=env, stdout=logf, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True)
        started.append(("flask", self.stop))
        wait_port(self.port)
        time.sleep(1.5)
        return self

    def stop(self):
        terminate(self.proc)
        self.proc = None

    def pids(self):
        return [self.proc.pid] + children(self.proc.pid) if self.proc else []

    def state(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request("GET", "/_state")
        lines = conn.getresponse().read().decode().strip().splitlines()
        conn.close()
        return [line.split() for line in lines]


def ensure_flask_venv(peers, venv):
    gunicorn = os.path.join(venv, "bin", "gunicorn")
    if not os.path.exists(gunicorn):
        log(f"peers: making {venv} (Flask, Jinja2, gunicorn as pinned in the peers folder)")
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "-r", os.path.join(peers, "requirements-flask.txt")],
                       check=True)


# ----------------------------------------------------------------------------- PostgreSQL
class Postgres:
    def __init__(self):
        self.folder = None
        self.url = None

    def start(self):
        err = tempfile.NamedTemporaryFile("w+", delete=False)
        self.url = subprocess.run([os.path.join(ROOT, "scripts", "start-test-postgres.sh")], stdout=subprocess.PIPE,
                                  stderr=err, text=True, check=True).stdout.strip()
        err.seek(0)
        self.folder = re.search(r"PostgreSQL test cluster in (\S+)", err.read()).group(1)
        started.append(("postgres", self.stop))
        return self

    def stop(self):
        if self.folder:
            bin_dir = sorted(d for d in os.listdir("/usr/lib/postgresql"))[-1]
            subprocess.run(["su", "postgres", "-c", f"/usr/lib/postgresql/{bin_dir}/bin/pg_ctl -D {self.folder} -m fast -w stop"],
                           capture_output=True)
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def pids(self):
        if not self.folder:
            return []
        with open(os.path.join(self.folder, "postmaster.pid")) as f:
            master = int(f.readline())
        return [master] + children(master)

    def completed_runs(self):
        out = subprocess.run(["psql", self.url, "-Atc", "SELECT count(*) FROM runs WHERE finish_reason = 'completed'"],
                             capture_output=True, text=True)
        return int(out.stdout.strip()) if out.returncode == 0 and out.stdout.strip().isdigit() else None


# ----------------------------------------------------------------------------- wrk
def to_ms(text):
    m = re.match(r"([\d.]+)(us|ms|s|m)$", text.strip())
    if not m:
        return None
    return float(m.group(1)) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[m.group(2)]


def parse_wrk(out):
    r = {}
    m = re.search(r"Requests/sec:\s+([\d.]+)", out)
    r["rps"] = float(m.group(1)) if m else None
    for pct in ("50", "90", "99"):
        m = re.search(rf"^\s+{pct}%\s+(\S+)", out, re.M)
        r[f"p{pct}_ms"] = to_ms(m.group(1)) if m else None
    m = re.search(r"(\d+) requests in", out)
    r["requests"] = int(m.group(1)) if m else None
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    r["non_2xx_3xx"] = int(m.group(1)) if m else 0
    m = re.search(r"Socket errors: (.*)", out)
    r["socket_errors"] = m.group(1).strip() if m else ""
    r["socket_error_counts"] = {kind: int(n) for kind, n in re.findall(r"(\w+) (\d+)", r["socket_errors"])}
    m = re.search(r"STATUS (.*)", out)
    if m:
        r["status"] = {k: int(v) for k, v in (kv.split("=") for kv in m.group(1).split())}
    r["error_answers"] = re.findall(r"^ERROR-ANSWER (.*)$", out, re.M)
    return r


class Case:
    """One load: a name, the wrk command line(s), whose CPU counts, and how to check it."""

    def __init__(self, name, group, targets, pids, prepare=None, check=None, peer=None, note="", memory_pids=None):
        self.name, self.group, self.targets, self.pids = name, group, targets, pids
        self.memory_pids = memory_pids or pids  # whose RSS is reported (the servers, not PostgreSQL)
        self.database_pids = None  # PostgreSQL's processes, whose share of the CPU is reported apart
        self.prepare, self.check, self.peer, self.note = prepare, check, peer, note


def wrk_command(target, duration, connections, threads):
    cmd = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--latency", "--timeout", "5s"]
    for header in target.get("headers", []):
        cmd += ["-H", header]
    if target.get("lua"):
        cmd += ["-s", target["lua"][0], target["url"], "--"] + target["lua"][1:]
    else:
        cmd.append(target["url"])
    return cmd


def run_case(case, duration, tag, raw_dir):
    """Runs the case's wrk command(s) at once (one per target), with CPU and memory read around them."""
    targets = case.prepare(tag) if case.prepare else case.targets
    before = case.check(None) if case.check else None
    pids = case.pids()
    cpu0, m0 = cpu_seconds(pids), machine_cpu()
    db0 = cpu_seconds(case.database_pids()) if case.database_pids else 0
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    procs = [subprocess.Popen(wrk_command(t, duration, t.get("connections", 32), t.get("threads", 2)), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True) for t in targets]
    outs = [p.communicate(timeout=duration + 60)[0] for p in procs]
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu1, m1 = cpu_seconds(case.pids()), machine_cpu()
    db1 = cpu_seconds(case.database_pids()) if case.database_pids else 0
    rss, peak = memory_kib(case.memory_pids())
    parsed = [parse_wrk(o) for o in outs]
    if any(p["rps"] is None for p in parsed):
        raise RuntimeError(f"wrk failed in {case.name}: " + "\n".join(outs)[-2000:])
    r = {
        "rps": sum(p["rps"] for p in parsed),
        "requests": sum(p["requests"] or 0 for p in parsed),
        "p50_ms": max(p["p50_ms"] for p in parsed),
        "p99_ms": max(p["p99_ms"] for p in parsed),
        "non_2xx_3xx": sum(p["non_2xx_3xx"] for p in parsed),
        "socket_errors": "; ".join(p["socket_errors"] for p in parsed if p["socket_errors"]),
        "socket_error_counts": {kind: sum(p["socket_error_counts"].get(kind, 0) for p in parsed)
                                for kind in {k for p in parsed for k in p["socket_error_counts"]}},
        "error_answers": [e for p in parsed for e in p["error_answers"]],
    }
    statuses = [p["status"] for p in parsed if "status" in p]
    if statuses:
        r["status"] = {k: sum(s.get(k, 0) for s in statuses) for k in statuses[0]}
    # answers in the 2xx and 3xx classes: the Lua script counts them where it runs; wrk's own
    # count of completed requests less its non-2xx/3xx ones otherwise
    r["answered"] = (r["status"]["2xx"] + r["status"]["3xx"]) if statuses else r["requests"] - r["non_2xx_3xx"]
    r["timeouts"] = r["socket_error_counts"].get("timeout", 0)
    busy, irq, total = (b - a for a, b in zip(m0, m1))
    server_cpu = cpu1 - cpu0
    wrk_cpu = (ru1.ru_utime + ru1.ru_stime) - (ru0.ru_utime + ru0.ru_stime)
    r.update(
        server_cpu_s=round(server_cpu, 3),
        server_cpu_us_per_req=round(1e6 * server_cpu / r["requests"], 1) if r["requests"] else None,
        server_cores=round(server_cpu / duration, 2),
        wrk_cores=round(wrk_cpu / duration, 2),
        other_cpu_pct=round(100 * (busy + irq - server_cpu - wrk_cpu) / total, 1) if total else None,
        rss_kib=rss, peak_rss_kib=peak,
    )
    if case.database_pids and r["requests"]:
        r["postgres_cpu_us_per_req"] = round(1e6 * (db1 - db0) / r["requests"], 1)
    if case.check:
        time.sleep(0.3)  # answers still in flight when wrk stopped
        r.update(case.check(before))
    with open(os.path.join(raw_dir, f"{case.name}_{tag}.txt"), "w") as f:
        for t, o in zip(targets, outs):
            f.write("# " + " ".join(wrk_command(t, duration, t.get("connections", 32), t.get("threads", 2))) + "\n" + o + "\n")
    return r


# ----------------------------------------------------------------------------- the run
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "survey"))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--duration", type=int, default=10, help="seconds per run")
    ap.add_argument("--warmup", type=int, default=3, help="seconds of warm-up per case")
    ap.add_argument("--peers", default=os.path.join(ROOT, "..", "shared", "peers"), help="the peers folder (Flask app, oTree)")
    ap.add_argument("--no-peers", action="store_true", help="measure the project only (nginx still runs: it is the limit)")
    ap.add_argument("--otree", action="store_true", help="also run oTree from the peers folder (slow)")
    ap.add_argument("--no-postgres", action="store_true", help="leave out the PostgreSQL replica cases")
    ap.add_argument("--floor", default="", help="the binary of bench/floor (Hummingbird alone); bench/run builds it")
    ap.add_argument("--load", default="", help="the binary of bench/load, for the open-loop cases; bench/run builds it")
    ap.add_argument("--open-rate", type=float, default=0,
                    help="requests per second of the open-loop cases (default: --open-fractions of the answer cycle's saturation rate in this run)")
    ap.add_argument("--open-fractions", default="0.5,0.25",
                    help="the open-loop rates as fractions of the answer cycle's saturation rate (default 0.5,0.25)")
    ap.add_argument("--check", action="store_true",
                    help="compare the GET:floor and answer cycle:floor ratios with the last committed results; exit 3 if one fell by more than 10 %%")
    ap.add_argument("--runs", default="1000,100000,1000000", help="stored-run counts for the growth case")
    ap.add_argument("--steps", default="10,100,1000", help="survey lengths for the growth case")
    ap.add_argument("--smoke", action="store_true", help="a few seconds per case, small stores: checks the harness works")
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    ap.add_argument("--only", default="", help="comma-separated case names to run (default: all)")
    args = ap.parse_args()
    if args.smoke:
        args.reps, args.duration, args.warmup = 1, 2, 1
        args.runs, args.steps = "1000,10000", "10,100"
        if args.out == os.path.join(HERE, "results"):
            args.out = os.path.join(tempfile.gettempdir(), "survey-bench-smoke")  # keep the committed results
    run_counts = [int(x) for x in args.runs.split(",")]
    step_counts = [int(x) for x in args.steps.split(",")]
    raw_dir = os.path.join(args.out, "raw")
    os.makedirs(raw_dir, exist_ok=True)
    work = tempfile.mkdtemp(prefix="survey-bench-")
    os.chmod(work, 0o755)  # nginx's workers run as another user
    surveys = os.path.join(work, "surveys")
    write_surveys(surveys, sorted(set(step_counts + [10])))
    results = {"started": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "machine": machine_description(),
               "settings": {"reps": args.reps, "duration_s": args.duration, "warmup_s": args.warmup, "smoke": args.smoke,
                            "wrk": "-t2 -c32 --latency --timeout 5s", "binary": args.binary},
               "runs": [], "servers": {}}
    expected_rate = 12_000  # answered steps per second at most, to size the pools of fresh sessions
    fresh_per_run = int(expected_rate * (args.duration + 1) / 2) + 1000
    cases = []
    try:
        # --- the project on SQLite, one server per stored-run count
        servers = {}
        for count in run_counts:
            s = Survey(f"sqlite-{count}", args.binary, surveys, os.path.join(work, f"sqlite-{count}")).start()
            finished = walk(s.port, "bench-10", 10)
            finished.conn.close()
            t0 = time.time()
            s.stop()
            clone_runs(s.database, finished.sid, (None for _ in range(count - 1)))
            s.start()
            log(f"{s.name}: {count} finished runs stored in {time.time() - t0:.1f} s "
                f"({os.path.getsize(s.database) / 2**20:.0f} MiB file)")
            servers[count] = s
        base = servers[run_counts[0]]

        # the step page, captured for nginx and the results (a participant at question 2)
        page_owner = walk(base.port, "bench-10", 1)
        step_page = page_owner.page()
        page_owner.conn.close()
        with open(os.path.join(args.out, "step-page.html"), "wb") as f:
            f.write(step_page)
        nginx = Nginx(os.path.join(work, "nginx"), step_page).start()
        results["step_page_bytes"] = len(step_page)

        def sqlite_check(server):
            def check(before):
                now = completed_runs(server.database)
                return now if before is None else {"completed_runs": now - before}
            return check

        def get_target(server, participant):
            return [{"url": f"http://127.0.0.1:{server.port}/surveys/bench-10",
                     "headers": [f"Cookie: {COOKIE}={participant.cookie}"]}]

        runs_per_case = args.reps + (1 if args.warmup else 0)

        def cycle_prepare(server, survey, questions, positioned_count=0, depth=0, window=256):
            """Each run gets its own participants: `positioned_count` whose runs stand at question
            depth + 1 (copied at set-up, a slice per run), then fresh sessions."""
            pool = positioned_pool(server, survey, questions, positioned_count * runs_per_case, depth) if positioned_count else []
            slices = iter([pool[i * positioned_count:(i + 1) * positioned_count] for i in range(runs_per_case)])

            def prepare(tag):
                path = os.path.join(work, f"{server.name}-{survey}-{tag}.txt")
                positioned = next(slices, [])
                warm(server.port, survey, positioned)
                participants_file(path, positioned, fresh_per_run)
                return [{"url": f"http://127.0.0.1:{server.port}", "lua": [LUA, path, "cycle", survey, str(questions), "2", str(window)]}]
            return prepare

        cases.append(Case("nginx-get", "get", [{"url": f"http://127.0.0.1:{nginx.port}/step.html"}], nginx.pids,
                          note=f"nginx serving the project's step page ({len(step_page)} B) as a static file"))
        if args.floor:
            floor = Floor(args.floor, os.path.join(work, "floor"), step_page).start()
            cases.append(Case("hummingbird-get", "get", [{"url": f"http://127.0.0.1:{floor.port}/step.html"}], floor.pids,
                              note="Hummingbird alone, the same bytes from memory: the framework's floor (bench/floor)"))
        for count in run_counts:
            s = servers[count]
            reader = walk(s.port, "bench-10", 1)
            reader.conn.close()
            cases.append(Case(f"get-runs-{count}", "get", get_target(s, reader), s.pids,
                              note=f"GET the current step page, {count} runs stored"))
            cases.append(Case(f"cycle-runs-{count}", "cycle", None, s.pids,
                              prepare=cycle_prepare(s, "bench-10", 10), check=sqlite_check(s),
                              note=f"answer cycle on the 10-question survey, {count} runs stored"))
        for n in step_counts:
            if n == 10:
                continue  # the 10-question cycle on the smallest store is cycle-runs-<first>
            cases.append(Case(f"cycle-steps-{n}", "cycle", None, base.pids,
                              prepare=cycle_prepare(base, f"bench-{n}", n, positioned_count=512, depth=n // 2),
                              check=sqlite_check(base),
                              note=f"answer cycle on the {n}-question survey, participants from question {n // 2 + 1} on"))

        # --- PostgreSQL: one replica, then two sharing the database
        if not args.no_postgres:
            pg = Postgres().start()
            replicas = [Survey(f"pg-{i}", args.binary, surveys, os.path.join(work, f"pg-{i}"), store=pg.url).start() for i in (1, 2)]

            def pg_prepare(count):
                def prepare(tag):
                    targets = []
                    for i, r in enumerate(replicas[:count]):
                        path = os.path.join(work, f"pg-{count}-{i}-{tag}.txt")
                        participants_file(path, [], fresh_per_run)
                        targets.append({"url": f"http://127.0.0.1:{r.port}", "threads": 2 // count, "connections": 32 // count,
                                        "lua": [LUA, path, "cycle", "bench-10", "10", str(2 // count), str(256 // count)]})
                    return targets
                return prepare

            def pg_check(before):
                now = pg.completed_runs()
                return now if before is None else {"completed_runs": (now - before) if now is not None else None}

            cases.append(Case("pg-1-replica", "postgres", None, lambda: replicas[0].pids() + pg.pids(), prepare=pg_prepare(1),
                              check=pg_check, memory_pids=replicas[0].pids,
                              note="answer cycle, one server on PostgreSQL (CPU: server + PostgreSQL; RSS: server)"))
            cases.append(Case("pg-2-replicas", "postgres", None, lambda: replicas[0].pids() + replicas[1].pids() + pg.pids(),
                              prepare=pg_prepare(2), check=pg_check, memory_pids=lambda: replicas[0].pids() + replicas[1].pids(),
                              note="answer cycle, two servers on one PostgreSQL, 16 connections each (CPU: servers + PostgreSQL; RSS: servers)"))
            for case in cases[-2:]:
                case.database_pids = pg.pids

        # --- peers
        if not args.no_peers:
            peers = os.path.abspath(args.peers)
            if not os.path.exists(os.path.join(peers, "flask_app", "app.py")):
                raise SystemExit(f"no peers folder at {peers} (give --peers, or --no-peers)")
            venv = os.path.join(ROOT, ".venv-bench")
            ensure_flask_venv(peers, venv)
            flask = Flask(peers, venv, os.path.join(work, "flask")).start()
            first = flask.state()[0][0]
            peer_lua = os.path.join(peers, "lua", "step_loop.lua")

            def flask_prepare(tag):
                path = os.path.join(work, f"flask-{tag}.txt")
                with open(path, "w") as f:
                    for rid, token, step in flask.state()[1:]:
                        f.write(f"{rid} {token} {step}\n")
                return [{"url": f"http://127.0.0.1:{flask.port}", "lua": [peer_lua, path, "cycle", "flask", "2", "128"]}]

            cases.append(Case("flask-get", "get", [{"url": f"http://127.0.0.1:{flask.port}/r/{first}/step/1"}], flask.pids,
                              peer="flask", note="Flask + Jinja2, gunicorn -w 2 (sync workers, Connection: close)"))
            cases.append(Case("flask-cycle", "cycle", None, flask.pids, prepare=flask_prepare, peer="flask",
                              note="Flask + Jinja2 answer cycle (in-memory dict, no durable write)"))
        if args.otree:
            cases += otree_cases(os.path.abspath(args.peers), work)

        if args.only:
            wanted = set(args.only.split(","))
            cases = [c for c in cases if c.name in wanted]

        for case in cases:
            if args.warmup:
                r = run_case(case, args.warmup, "warmup", raw_dir)
                log(f"warm-up {case.name:18s} {r['rps']:>9.0f} req/s")
        for rep in range(1, args.reps + 1):
            for case in cases:
                r = run_case(case, args.duration, f"rep{rep}", raw_dir)
                r.update(case=case.name, rep=rep)
                results["runs"].append(r)
                log(f"rep{rep} {case.name:18s} {r['rps']:>9.0f} req/s  p50 {r['p50_ms']:.2f} ms  p99 {r['p99_ms']:.2f} ms  "
                    f"cpu {r['server_cpu_us_per_req']} µs/req  rss {r['rss_kib'] / 1024:.0f} MiB  other {r['other_cpu_pct']}%  "
                    f"{r.get('status', '')} {('completed=' + str(r['completed_runs'])) if 'completed_runs' in r else ''}"
                    + (f"  wrk timeouts {r['timeouts']}" if r["timeouts"] else ""))
        results["cases"] = {c.name: {"group": c.group, "note": c.note, "peer": c.peer} for c in cases}
        results["open_loop"] = open_loop(args, base, results, work)
    finally:
        stop_all()
        shutil.rmtree(work, ignore_errors=True)
        results["finished"] = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    summary = summarize(results)
    results["summary"] = summary
    if results.get("open_loop"):
        results["open_summary"] = openloop.summarize(results["open_loop"])
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    markdown = render_markdown(results, summary)
    if results.get("open_summary"):
        markdown += "\n" + openloop.markdown(results["open_summary"])
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write(markdown)
    print(markdown)
    if not args.smoke and os.path.abspath(args.out) == os.path.join(HERE, "results") and not args.only:
        headline.write()  # the README's headline from the run just written
    problems = [f"{r['case']} rep{r['rep']}: {p}" for r in results["runs"] for p in run_problems(r, args.smoke)]
    problems += [f"{r['case']} rep{r['rep']}: {p}" for r in results.get("open_loop", []) for p in openloop.problems(r)]
    # The answer cycle's POSTs must have been answered somewhere, or its answers went unchecked
    # (a short smoke on a slow machine may not reach them in a case whose participants begin
    # with a GET; cycle-steps-* begins half of them with a POST).
    cycle_runs = [r for r in results["runs"] if "status" in r and results["cases"][r["case"]]["peer"] is None]
    if cycle_runs and not sum(r["status"].get("3xx", 0) for r in cycle_runs):
        problems.append("no answer was acknowledged (303) in any answer-cycle case: the answers went unchecked")
    if problems:
        print("\n".join(["Problems:"] + problems), file=sys.stderr)
        return 1
    if args.check:
        return check_ratios(committed_results(), summary)
    return 0


# ----------------------------------------------------------------------------- the guard
def floor_ratios(summary):
    """The project's req/s over Hummingbird alone's, same run: the GET of a step and the answer cycle."""
    floor, get, cycle = (e and e["rps_median"] for e in headline.headline_cases(summary))
    return {"GET:floor": get / floor if get and floor else None, "cycle:floor": cycle / floor if cycle and floor else None}


def committed_results():
    """bench/results/results.json as last committed (the run just made has overwritten the file)."""
    out = subprocess.run(["git", "-C", ROOT, "show", "HEAD:bench/results/results.json"], capture_output=True, text=True)
    return json.loads(out.stdout) if out.returncode == 0 else None


def check_ratios(committed, summary, tolerance=0.10):
    """Says, for each ratio to the floor, how this run compares with the committed run; 3 when one fell by more than 10 %."""
    if not committed or "summary" not in committed:
        print("check: no committed results to compare with", file=sys.stderr)
        return 3
    before, now = floor_ratios(committed["summary"]), floor_ratios(summary)
    fell = False
    for name in before:
        if before[name] is None or now[name] is None:
            print(f"check: {name} missing ({'committed run' if before[name] is None else 'this run'}: run the floor, get-runs-* and cycle-runs-*)",
                  file=sys.stderr)
            fell = True
            continue
        change = now[name] / before[name] - 1
        verdict = "FELL" if change < -tolerance else "ok"
        fell |= change < -tolerance
        print(f"check: {name} {now[name]:.2f}× now, {before[name]:.2f}× in the committed run of {committed['started']} "
              f"({change:+.0%}): {verdict}")
    if fell:
        print(f"check: a ratio to the floor fell by more than {tolerance:.0%} (or could not be compared)", file=sys.stderr)
        return 3
    return 0


def open_loop(args, server, results, work):
    """The open-loop cases on the smallest store, after the closed-loop ones: the GET of a step
    and the answer cycle, each at the same constant rates (fractions of the cycle's saturation
    rate in this run, or --open-rate), named open-get-50, open-cycle-25 and so on."""
    wanted = set(args.only.split(",")) if args.only else {"open-get", "open-cycle"}
    modes = [m for m in ("get", "cycle") if f"open-{m}" in wanted]
    if not args.load or not modes:
        return []
    if args.open_rate:
        rates = [(args.open_rate, None)]
    else:
        cycle = [r["rps"] for r in results["runs"] if r["case"] == f"cycle-runs-{server.name.split('-')[-1]}"]
        if not cycle:
            raise SystemExit("the open-loop cases need the answer cycle's rate: run cycle-runs-* too, or give --open-rate")
        rates = [(statistics.median(cycle) * float(f), float(f)) for f in args.open_fractions.split(",")]
    warmup = max(1, args.warmup)
    runs = []
    for rep in range(1, args.reps + 1):
        for rate, fraction in rates:
            for mode in modes:
                name = f"open-{mode}" + (f"-{round(fraction * 100)}" if fraction else "")
                path = os.path.join(work, f"{name}-{rep}.txt")
                if mode == "get":
                    readers = [walk(server.port, "bench-10", 1) for _ in range(32)]
                    for reader in readers:
                        reader.conn.close()
                    participants_file(path, [(reader.cookie, reader.csrf, 1) for reader in readers], 0)
                else:
                    participants_file(path, [], int(rate * (args.duration + warmup) / 2) + 1000)
                r = openloop.run(args.load, server, mode, rate, args.duration, warmup, path, "bench-10", 10, cpu_seconds)
                r.update(case=name, rep=rep, fraction=fraction)
                runs.append(r)
                log(f"rep{rep} {name:18s} {r['rate']:>7.0f} req/s due, {r['achieved_rps']:>7.0f} answered  p50 {r['p50_ms']:.2f} ms  "
                    f"p99 {r['p99_ms']:.2f} ms  p99.9 {r['p999_ms']:.2f} ms  max {r['max_ms']:.1f} ms  "
                    f"cpu {r['server_cpu_us_per_req']} µs/req  generator {r['load_cores']} cores  late {r['late_starts']}  {r['status']}")
    return runs


def otree_cases(peers, work):
    """oTree from the peers folder, driven by the peers' own harness functions on a writable copy."""
    copy = os.path.join(work, "peers")
    shutil.copytree(peers, copy, ignore=shutil.ignore_patterns("venv-*", "results*"))
    os.makedirs(os.path.join(copy, "results", "raw"), exist_ok=True)
    venv = os.path.join(ROOT, ".venv-bench-otree")
    if not os.path.exists(os.path.join(venv, "bin", "otree")):
        log("peers: making the oTree venv")
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "-r", os.path.join(copy, "requirements-otree.txt")],
                       check=True)
    os.symlink(venv, os.path.join(copy, "venv-otree"))
    sys.path.insert(0, copy)
    import bench as peer_bench  # the peers' bench.py in the copy
    pids = peer_bench.start_otree()
    started.append(("otree", lambda: peer_bench.stop_all()))
    cases = []
    for ep in peer_bench.make_endpoints(["otree"], {"otree": pids}):
        if ep["ep"] not in ("get", "cycle"):
            continue
        target = {"url": ep["url"]}
        if ep["lua"]:
            target["lua"] = [peer_bench.LUA] + ep["lua"]

        def prepare(tag, ep=ep, target=target):
            if ep.get("prep"):
                ep["prep"]()
            return [target]
        cases.append(Case(f"otree-{ep['ep']}", ep["ep"], [target], pids, prepare=prepare, peer="otree",
                          note="oTree prodserver (one uvicorn process, SQLite)"))
    return cases


def run_problems(r, smoke=False):
    """What makes a run fail. A request wrk gave up on after its 5 s timeout says how fast the
    machine was, and a smoke run on a busy shared machine proves the harness, not its speed:
    there, timeouts are a figure (in the log and results.md) and fail the run only when no
    request at all was answered. Every other socket error fails a smoke run too, and a full
    run fails on any."""
    problems = []
    status = r.get("status", {})
    if status.get("4xx") or status.get("5xx") or r["non_2xx_3xx"]:
        problems.append(f"error answers: {status or r['non_2xx_3xx']}"
                        + (f"; the first said: {', '.join(r['error_answers'])}" if r.get("error_answers") else ""))
    if status.get("starved"):
        problems.append(f"{status['starved']} participants ran out of fresh sessions")
    if not r.get("answered"):
        problems.append(f"no request was answered ({r.get('requests')} requests, socket errors: {r.get('socket_errors') or 'none'})")
    if smoke:
        others = {kind: n for kind, n in r.get("socket_error_counts", {}).items() if kind != "timeout" and n}
        if others:
            problems.append("socket errors: " + ", ".join(f"{kind} {n}" for kind, n in others.items()))
    elif r.get("socket_errors"):
        problems.append("socket errors: " + r["socket_errors"])
    return problems


def stop_all():
    while started:
        name, stop = started.pop()
        try:
            stop()
        except Exception as error:  # keep stopping the others
            log(f"could not stop {name}: {error}")


# ----------------------------------------------------------------------------- reporting
def summarize(results):
    out = {}
    for name in results.get("cases", {}):
        runs = [r for r in results["runs"] if r["case"] == name]
        if not runs:
            continue
        def med(key, digits=None):
            """The median of a figure over the case's runs; None where no run has it (a run
            that answered no request has no CPU per request), and the run's problems say why."""
            values = [r[key] for r in runs if r.get(key) is not None]
            return (round(statistics.median(values), digits) if digits else round(statistics.median(values))) if values else None
        rps = [r["rps"] for r in runs]
        entry = {
            "rps_median": med("rps"), "rps_min": round(min(rps)), "rps_max": round(max(rps)),
            "p50_ms": med("p50_ms", 2), "p99_ms": med("p99_ms", 2),
            "cpu_us_per_req": med("server_cpu_us_per_req", 1), "rss_mib": round(max(r["rss_kib"] for r in runs) / 1024, 1),
            "other_cpu_pct": med("other_cpu_pct", 1),
        }
        if any("postgres_cpu_us_per_req" in r for r in runs):
            entry["postgres_cpu_us_per_req"] = med("postgres_cpu_us_per_req", 1)
        completed = [r["completed_runs"] for r in runs if r.get("completed_runs") is not None]
        if completed:
            entry["surveys_per_s"] = round(statistics.median(completed) / results["settings"]["duration_s"], 1)
        out[name] = entry
    return out


def render_markdown(results, s):
    lines = [f"# Benchmark results", "",
             f"Run {results['started']} to {results['finished']} on {results['machine']}.",
             f"{results['settings']['reps']} repetitions × {results['settings']['duration_s']} s per case, interleaved, "
             f"after {results['settings']['warmup_s']} s of warm-up; wrk {results['settings']['wrk']}"
             + (" (smoke mode: the figures only show the harness works)" if results["settings"]["smoke"] else "") + ".", "",
             "| case | req/s median (min–max) | p50 ms | p99 ms | server CPU µs/req | RSS MiB | surveys/s | other CPU % | what |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, e in s.items():
        lines.append(f"| {name} | {e['rps_median']:,} ({e['rps_min']:,}–{e['rps_max']:,}) | {e['p50_ms']} | {e['p99_ms']} | "
                     f"{e['cpu_us_per_req']} | {e['rss_mib']} | {e.get('surveys_per_s', '')} | {e['other_cpu_pct']} | "
                     f"{results['cases'][name]['note']}"
                     + (f"; PostgreSQL's part {e['postgres_cpu_us_per_req']} µs" if "postgres_cpu_us_per_req" in e else "") + " |")
    timed_out = [r for r in results["runs"] if r.get("timeouts")]
    if timed_out:
        lines += ["", "wrk timeouts (requests not answered within 5 s"
                  + ("; counted, not failed, in smoke mode unless nothing was answered" if results["settings"]["smoke"] else "")
                  + "): " + ", ".join(f"{r['case']} rep{r['rep']} {r['timeouts']} of {r['requests'] + r['timeouts']}"
                                     for r in timed_out) + "."]
    get = next((k for k in s if k.startswith("get-runs-")), None)
    cycle = next((k for k in s if k.startswith("cycle-runs-")), None)
    lines += ["", "## Ratios (the project's figure ÷ the peer's, same run)", "", "| pair | req/s ratio | CPU per request (peer ÷ project) |",
              "|---|---|---|"]
    pairs = [("GET step vs nginx static, same bytes", get, "nginx-get"), ("GET step vs Hummingbird alone, same bytes", get, "hummingbird-get"),
             ("Hummingbird alone vs nginx static (the framework's ceiling)", "hummingbird-get", "nginx-get"),
             ("answer cycle vs Hummingbird alone", cycle, "hummingbird-get"), ("GET step vs Flask GET", get, "flask-get"),
             ("answer cycle vs Flask cycle", cycle, "flask-cycle"), ("answer cycle vs nginx GET", cycle, "nginx-get"),
             ("GET step vs oTree GET", get, "otree-get"), ("answer cycle vs oTree cycle", cycle, "otree-cycle"),
             ("two PostgreSQL replicas vs one", "pg-2-replicas", "pg-1-replica")]
    for label, mine, peer in pairs:
        if mine in s and peer in s:
            lines.append(f"| {label} | {ratio(s[mine]['rps_median'], s[peer]['rps_median'])} | "
                         f"{ratio(s[peer]['cpu_us_per_req'], s[mine]['cpu_us_per_req'])} |")
    growth = [k for k in s if k.startswith("cycle-runs-")], [k for k in s if k.startswith("cycle-steps-")]
    lines += ["", "## Growth (server CPU µs per request, answer cycle)", ""]
    runs_cases = growth[0]
    if runs_cases:
        lines.append("Stored runs: " + ", ".join(f"{k.split('-')[-1]} → {s[k]['cpu_us_per_req']} µs" for k in runs_cases)
                     + f" (largest ÷ smallest {ratio(s[runs_cases[-1]]['cpu_us_per_req'], s[runs_cases[0]]['cpu_us_per_req'])}).")
    steps_cases = ([cycle] if cycle else []) + growth[1]
    if len(steps_cases) > 1:
        lines.append("Survey length: " + ", ".join(
            f"{'10' if k == cycle else k.split('-')[-1]} questions → {s[k]['cpu_us_per_req']} µs" for k in steps_cases)
            + f" (longest ÷ shortest {ratio(s[steps_cases[-1]]['cpu_us_per_req'], s[steps_cases[0]]['cpu_us_per_req'])}).")
    lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    def on_term(signum, frame):
        raise KeyboardInterrupt()
    signal.signal(signal.SIGTERM, on_term)
    sys.exit(main())
