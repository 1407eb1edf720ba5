#!/usr/bin/env python3
"""Regenerates the start-up section of docs/BENCHMARKS.md from benchmarks/run-startup.sh's results.

Usage: format-startup.py RESULTS_DIR DOC. Reads RESULTS_DIR/startup.csv, commands.txt,
java-version.txt and load-*.txt.
"""
import csv
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import docsection  # noqa: E402

TARGET_MS = 150
CASES = [
    ("none", "no agent"),
    ("agent-no-match", "agent, rules that match no call"),
    ("agent-demo-rules", "agent, the demo's rules (`demo/rules.yaml`)"),
]


def load(results_dir):
    runs = {}
    with open(os.path.join(results_dir, "startup.csv")) as f:
        for row in csv.DictReader(f):
            runs.setdefault(row["case"], []).append(
                (float(row["first_ms"]), float(row["ready_ms"]), float(row["cpu_ms"]), row["round"]))
    return runs


def paired(runs, case, column):
    """The median over rounds of this case's start minus the no-agent start of the same round."""
    base = {x[3]: x[column] for x in runs.get("none", [])}
    diffs = [x[column] - base[x[3]] for x in runs.get(case, []) if x[3] in base]
    return statistics.median(diffs) if diffs else None


def spread(values):
    return "%.0f – %.0f" % (min(values), max(values))


def table(runs):
    base = runs.get("none")
    base_first = statistics.median(r[0] for r in base) if base else None
    base_cpu = statistics.median(r[2] for r in base) if base else None
    lines = [
        "| Case | Starts | First 200, median ms | min – max | Ratio to no agent | Added ms "
        "| Added ms, paired by round | CPU to first 200, median ms | Added CPU ms, paired |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for case, label in CASES:
        r = runs.get(case)
        if not r:
            continue
        first = statistics.median(x[0] for x in r)
        cpu = statistics.median(x[2] for x in r)
        ratio = "%.2f×" % (first / base_first) if base_first else "—"
        added = "%+.0f" % (first - base_first) if base_first and case != "none" else "—"
        pair = paired(runs, case, 0) if case != "none" else None
        pair_cpu = paired(runs, case, 2) if case != "none" else None
        lines.append("| %s | %d | %.0f | %s | %s | %s | %s | %.0f | %s |" % (
            label, len(r), first, spread([x[0] for x in r]), ratio, added,
            "%+.0f" % pair if pair is not None else "—", cpu,
            "%+.0f" % pair_cpu if pair_cpu is not None else "—"))
    return lines, base_first


def verdicts(runs, base_first):
    lines = []
    for case, label in CASES[1:]:
        r = runs.get(case)
        if not r or not base_first:
            continue
        added = paired(runs, case, 0)
        lines.append("- Start-up adds at most %d ms (%s): %+.0f ms paired by round, **%s**."
                     % (TARGET_MS, label, added, "met" if added <= TARGET_MS else "not met"))
    return lines


def section(results_dir):
    runs = load(results_dir)
    rows, base_first = table(runs)
    java = docsection.read(results_dir, "java-version.txt").splitlines()
    return "\n".join([
        "## Start-up: JVM start to the first successful answer",
        "",
        "The demo application (`demo/src/main/java/io/levee/demo/app`: Tomcat 9, javax servlets, H2 in",
        "memory, 3000 rows inserted at start) is started again and again; a poller in another, warm JVM",
        "asks `GET /api/orders` (header `X-Tenant-ID: acme`) every 5 ms from the moment the process is",
        "started, and the time is that of the first 200. That request runs a servlet, a `DriverManager`",
        "connection and a prepared query, so every class it needs is loaded (and, with the agent,",
        "matched and instrumented) before the clock stops. The cases run in rounds, one start of each",
        "per round in a rotating order, after one discarded warm-up round. \"CPU\" is the user + system",
        "time of the application's process at its first 200 (`ProcessHandle.info()`), which a busy",
        "machine inflates much less than the wall time. The machine's speed drifts between rounds (a",
        "whole round can be 20 % slower than the next), which moves the medians of the cases apart;",
        "each round's agent start minus the same round's start without the agent cancels that drift, so",
        "the added time is also given as the median of those differences (\"paired by round\"), and the",
        "target is judged on it.",
        "",
        "### Run",
        "- Machine: " + docsection.machine(),
        "- JDK: " + (java[1].strip() if len(java) > 1 else "unknown"),
        "- Load average (1, 5, 15 min) before: `%s`; after: `%s`"
        % (docsection.load_avg(results_dir, "load-before.txt"),
           docsection.load_avg(results_dir, "load-after.txt")),
        "- Command (`benchmarks/run-startup.sh`; from the repository root):",
        "",
        "```",
        docsection.read(results_dir, "commands.txt"),
        "```",
        "",
        "### Results",
        "",
    ] + rows + ["", "### Target", ""] + verdicts(runs, base_first))


def main():
    results_dir, doc = sys.argv[1], sys.argv[2]
    docsection.write(doc, "startup", "run-startup.sh", section(results_dir), ["hotpath"])


if __name__ == "__main__":
    main()
