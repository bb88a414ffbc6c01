#!/usr/bin/env python3
"""What the server holds and how fast it starts, for the README's benchmark section:

- memory per participant: the server's RSS with 10⁴ runs in progress (each started over HTTP
  by its first answer, so the server holds it as it would), less its RSS with 100, per run;
- start-up: from starting `survey serve` on a folder of 100 surveys to the first step page
  answered (200), the median of three starts on a fresh data folder;
- the release binary's size, as built and stripped of its symbols.

Writes bench/results/footprint.json and footprint.md (--out). Standard library only; uses
bench.py's server and session helpers. --smoke: 300 runs and 10 surveys, one start.
"""
import argparse
import http.client
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.parse

import bench
import headline

HERE = os.path.dirname(os.path.abspath(__file__))


def start_runs(port, survey, count, connections=4):
    """`count` participants each post their first answer, which starts their run."""
    def work(n):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        for _ in range(n):
            sid, cookie = bench.new_session()
            page, _ = bench.fresh_tokens(sid)
            body = urllib.parse.urlencode({"_csrf": page, "q1": "2", "_action": "next"})
            conn.request("POST", f"/surveys/{survey}", body=body,
                         headers={"Cookie": f"{bench.COOKIE}={cookie}", "Content-Type": "application/x-www-form-urlencoded"})
            response = conn.getresponse()
            response.read()
            if response.status != 303:
                raise RuntimeError(f"starting a run answered {response.status}")
        conn.close()
    threads = [threading.Thread(target=work, args=(count // connections + (i < count % connections),)) for i in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def memory_per_run(binary, work, runs):
    surveys = os.path.join(work, "surveys-memory")
    bench.write_surveys(surveys, [10])
    server = bench.Survey("memory", binary, surveys, os.path.join(work, "memory")).start()
    try:
        start_runs(server.port, "bench-10", 100)
        time.sleep(0.5)
        base, _ = bench.memory_kib(server.pids())
        start_runs(server.port, "bench-10", runs - 100)
        time.sleep(0.5)
        full, peak = bench.memory_kib(server.pids())
    finally:
        server.stop()
    return {"runs": runs, "rss_base_kib": base, "rss_kib": full, "peak_rss_kib": peak,
            "kib_per_run": round((full - base) / (runs - 100), 2)}


def write_many(folder, count):
    """`count` surveys of ten questions, each with its own identifier."""
    bench.write_surveys(folder, [10])
    with open(os.path.join(folder, "bench-10.json")) as f:
        template = json.load(f)
    os.remove(os.path.join(folder, "bench-10.json"))
    for i in range(1, count + 1):
        template["identifier"] = f"survey-{i:03d}"
        with open(os.path.join(folder, f"survey-{i:03d}.json"), "w") as f:
            json.dump(template, f)


def first_answer(binary, work, surveys, attempt):
    """Seconds from starting the server to the first step page answered with 200."""
    server = bench.Survey(f"start-{attempt}", binary, surveys, os.path.join(work, f"start-{attempt}"))
    port = server.port
    began = time.monotonic()
    proc = subprocess.Popen(server.cmd, env=dict(os.environ, SURVEY_SECRET=bench.SECRET), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        while time.monotonic() - began < 60:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/surveys/survey-001")
                if conn.getresponse().status == 200:
                    return time.monotonic() - began
            except OSError:
                time.sleep(0.002)
        raise RuntimeError("the server did not answer within 60 s")
    finally:
        bench.terminate(proc)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(bench.ROOT, ".build", "release", "survey"))
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    ap.add_argument("--smoke", action="store_true")
    args = ap.parse_args()
    runs, surveys_count, starts = (300, 10, 1) if args.smoke else (10_000, 100, 3)
    work = tempfile.mkdtemp(prefix="survey-footprint-")
    try:
        memory = memory_per_run(args.binary, work, runs)
        surveys = os.path.join(work, "surveys-many")
        write_many(surveys, surveys_count)
        times = [first_answer(args.binary, work, surveys, i) for i in range(starts)]
        stripped = os.path.join(work, "stripped")
        subprocess.run(["strip", "-o", stripped, args.binary], check=True)
        result = {"date": time.strftime("%Y-%m-%d %H:%M %Z"), "machine": bench.machine_description(), "memory": memory,
                  "start": {"surveys": surveys_count, "seconds": [round(t, 3) for t in times],
                            "median_s": round(statistics.median(times), 3)},
                  "binary": {"bytes": os.path.getsize(args.binary), "stripped_bytes": os.path.getsize(stripped)}}
    finally:
        bench.stop_all()
        shutil.rmtree(work, ignore_errors=True)
    mib = 1024 * 1024
    text = "\n".join([
        "# Footprint", "", f"Measured {result['date']} on {result['machine']} (`python3 bench/footprint.py`).", "",
        "| figure | value |", "|---|---|",
        f"| memory per run in progress | {memory['kib_per_run']} KiB (RSS {memory['rss_base_kib'] / 1024:.0f} MiB with 100 runs, "
        f"{memory['rss_kib'] / 1024:.0f} MiB with {runs:,}) |",
        f"| start-up to the first step page answered, {surveys_count} surveys | {result['start']['median_s'] * 1000:.0f} ms "
        f"(median of {starts}: {', '.join(f'{t * 1000:.0f}' for t in times)} ms) |",
        f"| release binary | {result['binary']['bytes'] / mib:.1f} MiB ({result['binary']['stripped_bytes'] / mib:.1f} MiB stripped) |", ""])
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "footprint.json"), "w") as f:
        json.dump(result, f, indent=1)
    with open(os.path.join(args.out, "footprint.md"), "w") as f:
        f.write(text)
    print(text)
    if not args.smoke and os.path.abspath(args.out) == os.path.join(HERE, "results"):
        headline.write()


if __name__ == "__main__":
    main()
