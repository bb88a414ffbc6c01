"""The tail at a constant arrival rate: bench/load (an open loop) against one server.

wrk is a closed loop: each of its 32 connections sends its next request only when the last
is answered, so on two saturated cores it measures queueing, and a stall of the server slows
the sender down and hides in the few requests that waited. Here requests are due at a
constant rate (by default half the saturation rate of the answer cycle measured in the same
run), and each one's latency runs from when it was due (corrected for coordinated omission).

bench/load is the project's own: Debian packages hey and bombardier, whose rate limit only
paces a closed loop and whose latencies start when a request is sent, and no registry this
machine reaches packages wrk2; and the answer cycle needs each simulated participant's
cookie and CSRF token in order, as bench/lua/participants.lua keeps them.
"""
import json
import resource
import statistics
import subprocess


def run(load, server, mode, rate, duration, warmup, participants, survey, questions, cpu_seconds, connections=32):
    """One open-loop run against `server`; the server's CPU is read around it."""
    cmd = [load, "--port", str(server.port), "--rate", f"{rate:.0f}", "--duration", str(duration), "--warmup", str(warmup),
           "--connections", str(connections), "--mode", mode, "--survey", survey, "--questions", str(questions),
           "--participants", participants]
    cpu0 = cpu_seconds(server.pids())
    own0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=duration + warmup + 60)
    own1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu1 = cpu_seconds(server.pids())
    if out.returncode != 0:
        raise RuntimeError(f"load failed: {out.stderr[-2000:]}")
    r = json.loads(out.stdout)
    sent = r["gets"] + r["posts"]
    r["server_cpu_us_per_req"] = round(1e6 * (cpu1 - cpu0) / sent, 1) if sent else None
    # the generator's own share of the two cores, which the server does not get
    r["load_cores"] = round((own1.ru_utime + own1.ru_stime - own0.ru_utime - own0.ru_stime) / (duration + warmup), 2)
    r["command"] = " ".join(cmd)
    return r


def summarize(runs):
    """Median over the repetitions of each case's figures."""
    out = {}
    for case in dict.fromkeys(r["case"] for r in runs):
        mine = [r for r in runs if r["case"] == case]

        def med(key):
            values = [r[key] for r in mine if r.get(key) is not None]
            return round(statistics.median(values), 2) if values else None
        out[case] = {"rate": mine[0]["rate"], "fraction": mine[0].get("fraction"), "achieved_rps": med("achieved_rps"), "p50_ms": med("p50_ms"), "p99_ms": med("p99_ms"),
                     "p999_ms": med("p999_ms"), "max_ms": round(max(r["max_ms"] for r in mine), 2),
                     "cpu_us_per_req": med("server_cpu_us_per_req"), "load_cores": med("load_cores"), "late_starts": sum(r["late_starts"] for r in mine),
                     "errors": sum(r["errors"] for r in mine), "reps": len(mine)}
    return out


def problems(r):
    """Why an open-loop run does not count: errors, error answers, or nothing answered."""
    found = []
    if not r["requests"]:
        found.append("nothing was answered")
    if r["errors"]:
        found.append(f"{r['errors']} requests failed on the connection")
    bad = r["status"]["4xx"] + r["status"]["5xx"]
    if bad:
        found.append(f"{bad} answers were 4xx or 5xx")
    return found


def markdown(summary, aims=(5.0, 20.0)):
    lines = ["## The tail at a constant arrival rate (open loop, bench/load)", "",
             "Requests due at a constant rate, a fraction of the answer cycle's saturation rate in this run (the case's "
             "suffix, in per cent); each request's latency "
             "from when it was due, so a stall counts for every request it delayed. "
             f"Aim: p99 ≤ {aims[0]:g} ms and p99.9 ≤ {aims[1]:g} ms.", "",
             "| case | rate req/s | answered req/s | p50 ms | p99 ms | p99.9 ms | max ms | server CPU µs/req | generator cores | late starts |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for name, e in summary.items():
        lines.append(f"| {name} | {e['rate']:,.0f} | {e['achieved_rps']:,.0f} | {e['p50_ms']} | {e['p99_ms']} | {e['p999_ms']} | "
                     f"{e['max_ms']} | {e['cpu_us_per_req']} | {e.get('load_cores')} | {e['late_starts']} |")
    lines += ["", "A late start is a request sent more than 1 ms after it was due (every connection was busy); "
              "its wait is in its latency.", ""]
    return "\n".join(lines)
