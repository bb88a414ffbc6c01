#!/usr/bin/env python3
"""The README's headline figures, made from the committed results (bench/results/results.json
and footprint.json), so they never drift from the last run: `python3 bench/headline.py` writes
them between the README's headline markers, `--print` only prints them. bench/run and
bench/footprint.py call it after writing their results; a docs test checks that the README
holds what the committed results make.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
README = os.path.join(os.path.dirname(HERE), "README.md")
BEGIN = "<!-- bench:headline: written by bench/headline.py from bench/results/ -->"
END = "<!-- /bench:headline -->"


def load(name):
    path = os.path.join(HERE, "results", name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def ratio(a, b):
    return f"{a / b:.2f}×" if a and b else "–"


def headline_cases(summary):
    """The floor's summary, the GET's and the answer cycle's on the smallest store (None where missing)."""
    return (summary.get("hummingbird-get"), next((v for k, v in summary.items() if k.startswith("get-runs-")), None),
            next((v for k, v in summary.items() if k.startswith("cycle-runs-")), None))


def render(results, footprint):
    floor, get, cycle = headline_cases(results["summary"])
    lines = [BEGIN, "",
             f"Measured {results['started']} (`bench/run`, {results['settings']['reps']} × {results['settings']['duration_s']} s "
             f"per case) on {results['machine']}; wrk on the same cores:", "",
             "| | req/s | server CPU per request | p99 (closed loop) | vs Hummingbird alone, same run |", "|---|---|---|---|---|"]
    rows = [("Hummingbird alone, the step page's bytes (`bench/floor`)", floor, ""),
            ("GET a step page", get, ratio(get and get["rps_median"], floor and floor["rps_median"])),
            ("answer cycle (SQLite, `synchronous=FULL`)", cycle, ratio(cycle and cycle["rps_median"], floor and floor["rps_median"]))]
    for label, e, versus in rows:
        if e:
            lines.append(f"| {label} | {e['rps_median']:,} | {e['cpu_us_per_req']} µs | {e['p99_ms']} ms | {versus} |")
    open_summary = results.get("open_summary") or {}
    for fraction in sorted({e.get("fraction") for e in open_summary.values()}, key=lambda f: -(f or 0)):
        cases = {name: e for name, e in open_summary.items() if e.get("fraction") == fraction}
        rate = next(iter(cases.values()))["rate"]
        share = f"{fraction:.0%} of the cycle's saturation rate; " if fraction else ""
        lines += ["", f"At a constant {rate:,.0f} requests per second ({share}latency from each request's due time, "
                  "`bench/load`): "
                  + "; ".join(f"{'GET' if name.startswith('open-get') else 'answer cycle'} p99 {e['p99_ms']} ms, p99.9 {e['p999_ms']} ms"
                              for name, e in cases.items()) + "."]
    if footprint:
        memory, start, binary = footprint["memory"], footprint["start"], footprint["binary"]
        lines += ["", f"Footprint, {footprint['date']} (`bench/footprint.py`): {memory['kib_per_run']} KiB of memory per run in "
                  f"progress ({memory['rss_kib'] / 1024:.0f} MiB RSS with {memory['runs']:,}); {start['median_s'] * 1000:.0f} ms from "
                  f"start to the first step page answered with {start['surveys']} surveys; release binary "
                  f"{binary['bytes'] / 2**20:.0f} MiB ({binary['stripped_bytes'] / 2**20:.0f} MiB stripped)."]
    lines += ["", END]
    return "\n".join(lines)


def current():
    results = load("results.json")
    return render(results, load("footprint.json")) if results else None


def write():
    """Puts the headline made from the results now in bench/results/ into the README."""
    block = current()
    if block is None:
        sys.exit("no bench/results/results.json")
    with open(README) as f:
        text = f.read()
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    if not pattern.search(text):
        sys.exit("README.md has no headline markers")
    with open(README, "w") as f:
        f.write(pattern.sub(lambda _: block, text))


def main():
    if "--print" in sys.argv:
        print(current())
    else:
        write()


if __name__ == "__main__":
    main()
