#!/usr/bin/env python3
"""What a repeating form's instances cost a step page: one participant's run of a survey
whose repeating form has 10 questions and takes up to 50 instances, with 1, 10, 25 and 50
instances saved, and its pages loaded with wrk (one connection, so each figure is one request's
server time plus loopback). Prints, per depth, the instance page's and the list page's p50,
requests per second and the server's CPU time per request, with the ratio to depth 1.

Uses the release build (bench/run builds it); only the standard library and wrk.

    python3 bench/repeats.py [--binary .build/release/survey] [--duration 5]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (its server, session and wrk helpers)

QUESTIONS = 10
DEPTHS = [1, 10, 25, 50]


def write_survey(folder):
    items = [{"identifier": f"q{i}", "text": f"Question {i} about this medicine", "optional": False,
              "answerFormat": {"type": "text", "maximumLength": 100}} for i in range(1, QUESTIONS + 1)]
    survey = {"identifier": "bench-repeat", "title": "Medicines",
              "steps": [{"identifier": "meds", "type": "form", "title": "Your medicines",
                         "repeat": {"label": "Medicine", "minimum": 1, "maximum": max(DEPTHS) + 10}, "items": items},
                        {"identifier": "end", "type": "instruction", "title": "End"}]}
    with open(os.path.join(folder, "bench-repeat.json"), "w") as f:
        json.dump(survey, f)


def post(participant, fields):
    participant.page()
    status, _ = participant.request("POST", urllib.parse.urlencode(dict(fields, _csrf=participant.csrf)))
    if status != 303:
        raise RuntimeError(f"POST {fields} answered {status}")


def positioned(port, depth):
    """A participant whose run has `depth` instances saved and stands on the list page."""
    p = bench.Participant(port, "bench-repeat")
    answers = {f"q{i}": f"answer {i} with some words in it" for i in range(1, QUESTIONS + 1)}
    for k in range(depth):
        if k > 0:
            post(p, {"_another": "yes", "_action": "next"})
        post(p, dict(answers, _instance=str(k), _action="next"))
    return p


def load(port, participant, seconds):
    """wrk on the participant's current page over one connection: (p50 ms, req/s, requests)."""
    cmd = ["wrk", "-t1", "-c1", f"-d{seconds}s", "--latency", "-H", f"Cookie: {bench.COOKIE}={participant.cookie}",
           f"http://127.0.0.1:{port}/surveys/bench-repeat"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    parsed = bench.parse_wrk(out)
    if parsed["non_2xx_3xx"]:
        raise RuntimeError(f"wrk saw {parsed['non_2xx_3xx']} failed answers")
    return parsed["p50_ms"], parsed["rps"], parsed["requests"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", default=os.path.join(bench.ROOT, ".build", "release", "survey"))
    ap.add_argument("--duration", type=int, default=5)
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="bench-repeat-")
    surveys = os.path.join(folder, "surveys")
    os.makedirs(surveys)
    write_survey(surveys)
    server = bench.Survey("survey", args.binary, surveys, os.path.join(folder, "data")).start()
    rows = []
    try:
        for depth in DEPTHS:
            p = positioned(server.port, depth)
            for page, fields in (("list", None), ("instance", {"_another": "yes", "_action": "next"})):
                if fields:
                    post(p, fields)
                body = p.page()
                shown = re.search(rb'<dt class="summary-list__key">', body) is not None
                if (page == "list") != shown:
                    raise RuntimeError(f"depth {depth}: expected the {page} page")
                cpu_before = bench.cpu_seconds(server.pids())
                p50, rps, requests = load(server.port, p, args.duration)
                cpu = (bench.cpu_seconds(server.pids()) - cpu_before) / max(requests, 1) * 1e6
                rows.append({"depth": depth, "page": page, "p50_ms": p50, "rps": rps, "cpu_us": cpu})
                bench.log(f"depth {depth:>2} {page:<8} p50 {p50:.3f} ms  {rps:,.0f} req/s  {cpu:,.0f} µs CPU/request")
    finally:
        server.stop()
    print(f"\nA repeating form of {QUESTIONS} questions with N instances saved: its list, and the page of instance N + 1; one connection")
    print("| page | instances saved | p50 | req/s | server CPU per request | vs 1 |")
    print("| --- | --- | --- | --- | --- | --- |")
    for row in rows:
        first = next(r for r in rows if r["page"] == row["page"] and r["depth"] == DEPTHS[0])
        print(f"| {row['page']} | {row['depth']} | {row['p50_ms']:.3f} ms | {row['rps']:,.0f} "
              f"| {row['cpu_us']:,.0f} µs | {row['cpu_us'] / first['cpu_us']:.2f}× |")


if __name__ == "__main__":
    main()
