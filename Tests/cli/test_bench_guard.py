"""The benchmark's guard and its open-loop figures, on made-up results (the benchmark itself
runs in the test command's smoke phase):
- `--check` passes a run whose ratios to the floor held, and fails (3) one whose GET or cycle
  ratio fell by more than 10 %, or that lacks the floor to compare with;
- the open-loop summary takes the median of the repetitions and the worst maximum, and a run
  with failed connections or error answers is a problem.
"""
import copy
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))

import bench  # noqa: E402
import openloop  # noqa: E402

COMMITTED = {"started": "2026-11-25 20:33:18 UTC", "summary": {
    "hummingbird-get": {"rps_median": 40_000}, "get-runs-1000": {"rps_median": 20_000}, "cycle-runs-1000": {"rps_median": 8_000}}}


def test_ratios_to_the_floor():
    ratios = bench.floor_ratios(COMMITTED["summary"])
    assert ratios == {"GET:floor": 0.5, "cycle:floor": 0.2}


def test_check_passes_a_run_that_held_and_a_small_drop(capsys):
    now = copy.deepcopy(COMMITTED["summary"])
    now["get-runs-1000"]["rps_median"] = 18_400  # 0.46×: 8 % less
    assert bench.check_ratios(COMMITTED, now) == 0
    out = capsys.readouterr().out
    assert "GET:floor 0.46× now, 0.50× in the committed run of 2026-11-25 20:33:18 UTC (-8%): ok" in out


def test_check_fails_a_drop_of_more_than_ten_percent(capsys):
    now = copy.deepcopy(COMMITTED["summary"])
    now["cycle-runs-1000"]["rps_median"] = 7_000  # 0.175×: 12.5 % less
    assert bench.check_ratios(COMMITTED, now) == 3
    captured = capsys.readouterr()
    assert "cycle:floor 0.17× now, 0.20×" in captured.out and "FELL" in captured.out
    assert "fell by more than 10%" in captured.err


def test_check_fails_without_the_floor_or_committed_results(capsys):
    now = copy.deepcopy(COMMITTED["summary"])
    del now["hummingbird-get"]
    assert bench.check_ratios(COMMITTED, now) == 3
    assert "GET:floor missing (this run" in capsys.readouterr().err
    assert bench.check_ratios(None, COMMITTED["summary"]) == 3


def run(case, p99, maximum, errors=0, bad=0):
    return {"case": case, "rate": 3000.0, "achieved_rps": 2990.0, "requests": 29_900, "p50_ms": 0.4, "p99_ms": p99, "p999_ms": p99 * 3,
            "max_ms": maximum, "server_cpu_us_per_req": 90.0, "load_cores": 0.3, "late_starts": 1, "errors": errors,
            "status": {"1xx": 0, "2xx": 15_000, "3xx": 14_900 - bad, "4xx": bad, "5xx": 0}}


def test_open_loop_summary_takes_medians_and_the_worst_maximum():
    summary = openloop.summarize([run("open-cycle", 2.0, 10.0), run("open-cycle", 4.0, 30.0), run("open-cycle", 3.0, 12.0)])
    entry = summary["open-cycle"]
    assert entry["p99_ms"] == 3.0 and entry["p999_ms"] == 9.0 and entry["max_ms"] == 30.0 and entry["late_starts"] == 3
    table = openloop.markdown(summary)
    assert "| open-cycle | 3,000 | 2,990 | 0.4 | 3.0 | 9.0 | 30.0 | 90.0 | 0.3 | 3 |" in table


def test_open_loop_problems():
    assert openloop.problems(run("open-get", 1.0, 2.0)) == []
    assert openloop.problems(run("open-get", 1.0, 2.0, errors=2)) == ["2 requests failed on the connection"]
    assert openloop.problems(run("open-get", 1.0, 2.0, bad=5)) == ["5 answers were 4xx or 5xx"]
