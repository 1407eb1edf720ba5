#!/usr/bin/env python3
"""Reads the rounds of run-metrics.sh and prints, per case, off and on ns/op (median of rounds),
the ratio on/off of each round with its median, min and max, and the B/op of both."""
import glob
import json
import os
import re
import statistics
import sys

CASES = [("noMatch", "(a) no resource matched"), ("rateLimit", "(b) rate limit only"),
         ("combined", "(c) breaker + rate limit + concurrency")]


def load(path):
    scores, alloc = {}, {}
    for r in json.load(open(path)):
        name = r["benchmark"].rsplit(".", 1)[1]
        scores[name] = r["primaryMetric"]["score"]
        norm = r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm")
        if norm:
            alloc[name] = norm["score"]
    return scores, alloc


def main(out):
    rounds = {}
    for path in glob.glob(os.path.join(out, "round-*-*.json")):
        m = re.search(r"round-(\d+)-(off|on)\.json$", path)
        try:
            rounds.setdefault(int(m.group(1)), {})[m.group(2)] = load(path)
        except ValueError:  # a round still running
            continue
    complete = sorted(n for n, r in rounds.items() if len(r) == 2)
    print(f"{len(complete)} rounds")
    print("| Case | off ns/op (median) | on ns/op (median) | on/off per round | median on/off "
          "| min – max | off B/op | on B/op |")
    print("|---|---:|---:|---|---:|---:|---:|---:|")
    for key, label in CASES:
        off = [rounds[n]["off"][0][key] for n in complete]
        on = [rounds[n]["on"][0][key] for n in complete]
        ratios = [b / a for a, b in zip(off, on)]
        off_b = max(rounds[n]["off"][1].get(key, float("nan")) for n in complete)
        on_b = max(rounds[n]["on"][1].get(key, float("nan")) for n in complete)
        print(f"| {label} | {statistics.median(off):.1f} | {statistics.median(on):.1f} | "
              + ", ".join(f"{r:.3f}" for r in ratios)
              + f" | **{statistics.median(ratios):.3f}** | {min(ratios):.3f} – {max(ratios):.3f} "
              f"| {off_b:.3f} | {on_b:.3f} |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "benchmarks/target/metrics")
