#!/usr/bin/env python3
"""What the instruments brought in cost: reading a REDCap dictionary or an XLSForm workbook
against reading the survey file made from it (`survey validate`, each the median of several
runs, process start included), and a step page whose 200 choices each show on a condition
(XLSForm's choice_filter) against the same page without conditions (wrk, one connection, so
each figure is one request's server time plus loopback).

Uses the release build (bench/run builds it); only the standard library and wrk.

    python3 bench/imports.py [--binary .build/release/survey] [--duration 5] [--runs 9]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (its server, session and wrk helpers)

CORPUS = [
    ("redcap", "Tests/Fixtures/redcap-corpus/07-scid5-score-sheet-branching.csv"),
    ("redcap", "Tests/Fixtures/redcap-corpus/13-cypress-default-today-now-action-tags.csv"),
    ("xlsform", "Tests/Fixtures/xlsform-corpus/15-xlsformorg-multilang-en-es-constraint.xlsx"),
    ("xlsform", "Tests/Fixtures/xlsform-corpus/23-kobo-cascading-choice-filter.xlsx"),
]
CHOICES = 200


def median_ms(command, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=False)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def reading(binary, folder, runs):
    rows = []
    for kind, relative in CORPUS:
        source = os.path.join(bench.ROOT, relative)
        made = os.path.join(folder, os.path.basename(source) + ".json")
        extra = ["--instrument", "scid_score_sheet"] if "07-" in relative else []
        extra = ["--instrument", "survey"] if "13-" in relative else extra
        subprocess.run([binary, "import", kind, source, "--output", made, *extra], capture_output=True, check=True)
        imported = median_ms([binary, "validate", source], runs)
        plain = median_ms([binary, "validate", made], runs)
        rows.append((os.path.basename(source), imported, plain))
        bench.log(f"{os.path.basename(source)}: {imported:.1f} ms as it is, {plain:.1f} ms as a survey file")
    return rows


def write_survey(folder, filtered):
    regions = [{"text": "North", "value": "north"}, {"text": "South", "value": "south"}]
    districts = []
    for index in range(CHOICES):
        region = "north" if index % 2 == 0 else "south"
        choice = {"text": f"District {index} of the {region}", "value": f"d{index}"}
        if filtered:
            choice["visibleIf"] = {"result": "region", "choice": region}
        districts.append(choice)
    survey = {"identifier": "bench-filter", "title": "Districts", "steps": [
        {"identifier": "region", "type": "question", "question": "Region",
         "answerFormat": {"type": "textChoice", "style": "singleChoice", "choices": regions}},
        {"identifier": "district", "type": "question", "question": "District",
         "answerFormat": {"type": "valuePicker", "choices": districts}},
        {"identifier": "end", "type": "instruction", "title": "End"}]}
    with open(os.path.join(folder, "bench-filter.json"), "w") as f:
        json.dump(survey, f)


def page_cost(binary, folder, filtered, seconds):
    surveys = os.path.join(folder, "filtered" if filtered else "plain")
    os.makedirs(surveys)
    write_survey(surveys, filtered)
    server = bench.Survey("survey", binary, surveys, os.path.join(folder, ("f" if filtered else "p") + "-data")).start()
    try:
        participant = bench.Participant(server.port, "bench-filter")
        participant.page()
        status, _ = participant.request("POST", urllib.parse.urlencode({"region": "south", "_action": "next", "_csrf": participant.csrf}))
        if status != 303:
            raise RuntimeError(f"POST region answered {status}")
        body = participant.page()
        shown = body.count(b"<option value=\"d")
        if shown != (CHOICES // 2 if filtered else CHOICES):
            raise RuntimeError(f"the district page shows {shown} districts")
        cpu_before = bench.cpu_seconds(server.pids())
        cmd = ["wrk", "-t1", "-c1", f"-d{seconds}s", "--latency", "-H", f"Cookie: {bench.COOKIE}={participant.cookie}",
               f"http://127.0.0.1:{server.port}/surveys/bench-filter"]
        parsed = bench.parse_wrk(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
        cpu = (bench.cpu_seconds(server.pids()) - cpu_before) / max(parsed["requests"], 1) * 1e6
        bench.log(f"{'filtered' if filtered else 'plain'}: p50 {parsed['p50_ms']:.3f} ms, {parsed['rps']:,.0f} req/s, {cpu:,.0f} µs CPU/request")
        return parsed["p50_ms"], parsed["rps"], cpu
    finally:
        server.stop()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", default=os.path.join(bench.ROOT, ".build", "release", "survey"))
    ap.add_argument("--duration", type=int, default=5)
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="bench-imports-")
    read = reading(args.binary, folder, args.runs)
    plain = page_cost(args.binary, folder, False, args.duration)
    filtered = page_cost(args.binary, folder, True, args.duration)
    print("\nReading a file (survey validate, median, process start included)")
    print("| file | as it is | as the survey file made from it | ratio |")
    print("| --- | --- | --- | --- |")
    for name, imported, made in read:
        print(f"| {name} | {imported:.1f} ms | {made:.1f} ms | {imported / made:.2f}× |")
    print(f"\nA step page of {CHOICES} drop-down choices, one connection")
    print("| choices | p50 | req/s | server CPU per request | vs plain |")
    print("| --- | --- | --- | --- | --- |")
    for label, (p50, rps, cpu) in (("all shown", plain), (f"each on a condition ({CHOICES // 2} shown)", filtered)):
        print(f"| {label} | {p50:.3f} ms | {rps:,.0f} | {cpu:,.0f} µs | {cpu / plain[2]:.2f}× |")


if __name__ == "__main__":
    main()
