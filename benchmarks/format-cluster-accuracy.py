#!/usr/bin/env python3
"""Regenerates the cluster rate-limit accuracy section of docs/BENCHMARKS.md from
benchmarks/run-cluster-accuracy.sh's results.

Usage: format-cluster-accuracy.py RESULTS_DIR DOC. Reads RESULTS_DIR/summary.csv (one row per fleet
size and scenario, written by ClusterAccuracyBenchmark), command.txt, jdk.txt, redis-version.txt and
load-*.txt; the plots are docs/img/cluster-accuracy-N.png.
"""
import csv
import os
import re
import sys
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import docsection  # noqa: E402

def fill(text):
    return textwrap.fill(text, 100, break_on_hyphens=False, break_long_words=False)


def rows(results_dir):
    path = os.path.join(results_dir, "summary.csv")
    if not os.path.exists(path):
        sys.exit("%s: no summary.csv" % results_dir)
    with open(path) as f:
        return list(csv.DictReader(f))


def r(value):
    v = float(value)
    return "—" if v != v else "%.3f" % v


def load_during(results_dir):
    path = os.path.join(results_dir, "load-during.txt")
    if not os.path.exists(path):
        return None
    ones = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2:
                ones.append(float(parts[1]))
    return (min(ones), max(ones)) if ones else None


def verdict(row):
    if row["bound"] == "within":
        return "within"
    if row["bound"] != "missed":
        return "— (under 10 s measured)"
    low, high = float(row["window_low_r"]), float(row["window_high_r"])
    lo, hi = float(row["window_min_r"]), float(row["window_max_r"])
    misses = []
    if lo < low:
        misses.append("%.3f below %.2f" % (low - lo, low))
    if hi > high:
        misses.append("%.3f above %.3f" % (hi - high, high))
    return "**missed**: " + ", ".join(misses)


def section(results_dir):
    data = rows(results_dir)
    first = data[0]
    rate, burst, sync = first["rate"], first["burst"], first["sync_ms"]
    high = float(first["window_high_r"])
    sizes = sorted({int(row["instances"]) for row in data})
    load = "%g" % float(first["offered_r"])
    intro = fill(
        "What a fleet admits together when its instances share one `rate-limit: { rate: R/s, scope: "
        "cluster }` (SPEC §5.3): each instance decides alone from its share, and its settling thread "
        "reports its demand to Redis and takes a new share every `sync`. Fleets of %s JVMs, each an "
        "instance of `QuotaApp` (integration tests) with the packaged agent, calling a local HTTP "
        "partner with `HttpURLConnection` at a rate the harness sets (open loop: calls start on "
        "schedule whatever earlier ones do); the partner counts per second what it receives, which "
        "is what the fleet admitted. Rules: `rate: %s/s, burst: %s, scope: cluster`, `settings."
        "cluster: { sync: %sms }`, one `redis-server` on loopback. Three scenarios per fleet, each "
        "offering %s R: **even** (every instance %s R / N), **skewed** (all of it on instance 0, the "
        "others running and idle) and **moving** (on instance 0, then from halfway on instance 1). "
        "Before each scenario the fleet idles %s s; each then runs %s s of warm-up (grey in the "
        "plots, not counted) and %s s measured. Source: "
        "`integration-tests/src/test/java/io/levee/it/cluster/ClusterAccuracyBenchmark.java`; run it "
        "again with `benchmarks/run-cluster-accuracy.sh` (about five minutes; it starts its own "
        "redis-server)."
        % (" and ".join(str(n) for n in sizes), rate, burst, sync, load, load, first["quiet_s"],
           first["warm_up_s"], first["measured_s"]))
    bound = fill(
        "The issue's bound: over any 10-s window with more than R offered, the fleet admits between "
        "0.9 R and 1.05 R per second plus one burst, that is a window's mean between 0.9 R and "
        "%.2f R here (1.05 + %s / (10 × %s)). Windows slide by one second over the measured "
        "seconds. The instances' own counts (thin lines, and the table after the plots) are read "
        "from each at every second's end, a few milliseconds off the partner's seconds."
        % (high, burst, rate))
    redis = re.search(r"v=(\S+)", docsection.read(results_dir, "redis-version.txt"))
    jdk = docsection.read(results_dir, "jdk.txt").splitlines()
    during = load_during(results_dir)
    lines = [
        "## Cluster rate limit: accuracy",
        "",
        intro,
        "",
        bound,
        "",
        "### Run",
        "- Machine: " + docsection.machine(),
        "- JDK: %s" % (jdk[1].strip() if len(jdk) > 1 else "(not recorded)"),
        "- Redis: %s on 127.0.0.1, `--save \"\" --appendonly no`"
        % (redis.group(1) if redis else "(version not recorded)"),
        "- Instances: `-Xmx256m -XX:+UseSerialGC`, 16 calling threads each",
        "- Load average (1, 5, 15 min) before: `%s`; after: `%s`"
        % (docsection.load_avg(results_dir, "load-before.txt"),
           docsection.load_avg(results_dir, "load-after.txt"))
        + ("; 1-min load during the run, sampled every 5 s: %.2f to %.2f" % during
           if during else ""),
        "- Command (from the repository root):",
        "",
        "```",
        docsection.read(results_dir, "command.txt"),
        "```",
        "",
        "### Results (fractions of R = %s/s; measured seconds only)" % rate,
        "",
        "| JVMs | Scenario | Mean | 10-s windows, min | 10-s windows, max | Bound 0.9–%.2f | "
        "Worst second, low | Worst second, high | Blocked | Errors |" % high,
        "|---:|---|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    for row in data:
        lines.append(
            "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |"
            % (row["instances"], row["scenario"], r(row["mean_r"]), r(row["window_min_r"]),
               r(row["window_max_r"]), verdict(row), r(row["second_min_r"]),
               r(row["second_max_r"]), "{:,}".format(int(row["blocked"])), row["errors"]))
    lines += [""]
    for n in sizes:
        lines += ["![Admitted per second over R, %d JVMs](img/cluster-accuracy-%d.png)" % (n, n), ""]
    lines += [
        fill("Each instance's admitted calls per second over R, in the first and the second half "
             "of the measured seconds (instance 0 first):"),
        "",
        "| JVMs | Scenario | First half | Second half |",
        "|---:|---|---|---|",
    ]
    for row in data:
        lines.append("| %s | %s | %s | %s |"
                     % (row["instances"], row["scenario"], row["instance_first_half_r"],
                        row["instance_second_half_r"]))
    met = [row for row in data if row["bound"] == "within"]
    lines += ["", "### Target", ""]
    lines.append("- Every 10-s window between 0.9 R and %.2f R: %d of %d scenarios%s."
                 % (high, len(met), len(data),
                    ", **met**" if len(met) == len(data) else ", **not met** in the others"))
    return "\n".join(lines)


def main():
    results_dir, doc = sys.argv[1:3]
    docsection.write(doc, "cluster-accuracy", "run-cluster-accuracy.sh", section(results_dir),
                     ["cluster"])


if __name__ == "__main__":
    main()
