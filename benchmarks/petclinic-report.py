#!/usr/bin/env python3
"""The petclinic benchmark's helpers (benchmarks/run-petclinic.sh).

  petclinic-report.py sample URL FILE   polls the agent's /status 5 times a second and appends the
                                        `system` limit to FILE, one number a line, until stopped
  petclinic-report.py report DIR        reads DIR/raw (wrk's JSON lines, the limit samples), writes
                                        one table per run and DIR/summary.md, prints the summary
"""
import glob
import json
import os
import re
import signal
import statistics
import sys
import time
import urllib.request

# The same pattern as the load bench's LimitReader: the `system` entry of /status.
SYSTEM_LIMIT = re.compile(r'"name":"system"[^{}]*?"limit":(\d+)')
RUN = re.compile(r"(?P<variant>[a-z]+)-r(?P<round>\d+)-c(?P<conns>\d+)\.json$")


def system_limit(body):
    m = SYSTEM_LIMIT.search(body)
    return int(m.group(1)) if m else None


def sample(url, path):
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with open(path, "a") as out:
        while True:
            try:
                with urllib.request.urlopen(url, timeout=1) as resp:
                    limit = system_limit(resp.read().decode())
                if limit is not None:
                    out.write(f"{limit}\n")
                    out.flush()
            except OSError:
                pass
            time.sleep(0.2)


def limit_stats(samples):
    """Mean, coefficient of variation (population), min and max; None when nothing was read."""
    if not samples:
        return None
    mean = statistics.fmean(samples)
    cov = statistics.pstdev(samples) / mean if mean > 0 else 0.0
    return {"mean": mean, "cov": cov, "min": min(samples), "max": max(samples), "n": len(samples)}


def load_run(path):
    with open(path) as f:
        w = json.loads(f.read().strip().splitlines()[-1])
    seconds = w["duration_us"] / 1e6
    good = w["requests"] - w["non2xx"]
    run = {
        "goodput": good / seconds,
        "non2xx": w["non2xx"],
        "socket_errors": w["connect_errors"] + w["read_errors"] + w["write_errors"] + w["timeouts"],
        "p50": w["p50_us"] / 1000,
        "p99": w["p99_us"] / 1000,
        "limit": None,
    }
    limits = path[: -len(".json")] + "-limit.txt"
    if os.path.exists(limits):
        with open(limits) as f:
            run["limit"] = limit_stats([int(x) for x in f.read().split()])
    return run


def fmt_limit(s):
    if s is None:
        return "—", "—", "—"
    return f"{s['mean']:.1f}", f"{s['cov']:.2f}", f"{s['min']}–{s['max']}"


def report(d):
    runs = {}
    for path in sorted(glob.glob(os.path.join(d, "raw", "*.json"))):
        m = RUN.search(os.path.basename(path))
        if m:
            key = (m["variant"], int(m["round"]), int(m["conns"]))
            runs[key] = load_run(path)
    head = (
        "| connections | goodput (2xx/s) | non-2xx | socket errors | p50 (ms) | p99 (ms) "
        "| limit mean | limit CoV | limit min–max |\n|---:|---:|---:|---:|---:|---:|---:|---:|---|\n"
    )
    for variant, rnd in sorted({(v, r) for v, r, _ in runs}):
        rows = []
        for c in sorted(c for v, r, c in runs if (v, r) == (variant, rnd)):
            x = runs[(variant, rnd, c)]
            mean, cov, span = fmt_limit(x["limit"])
            rows.append(
                f"| {c} | {x['goodput']:.0f} | {x['non2xx']} | {x['socket_errors']} "
                f"| {x['p50']:.1f} | {x['p99']:.1f} | {mean} | {cov} | {span} |\n"
            )
        with open(os.path.join(d, f"run-{variant}-r{rnd}.md"), "w") as f:
            f.write(f"### {variant}, round {rnd}\n\n" + head + "".join(rows))
    lines = [
        "| round | connections | goodput, no agent | goodput, agent | agent / no agent "
        "| rejected (non-2xx), agent | p99 no agent / agent (ms) | limit mean | limit CoV "
        "| limit min–max |",
        "|---:|---:|---:|---:|---:|---:|---|---:|---:|---|",
    ]
    for _, rnd, c in sorted(k for k in runs if k[0] == "none"):
        a, b = runs[("none", rnd, c)], runs.get(("levee", rnd, c))
        if b is None:
            continue
        mean, cov, span = fmt_limit(b["limit"])
        lines.append(
            f"| {rnd} | {c} | {a['goodput']:.0f} | {b['goodput']:.0f} "
            f"| {b['goodput'] / a['goodput']:.3f} | {b['non2xx']} "
            f"| {a['p99']:.1f} / {b['p99']:.1f} | {mean} | {cov} | {span} |"
        )
    summary = "\n".join(lines) + "\n"
    with open(os.path.join(d, "summary.md"), "w") as f:
        f.write(summary)
    print(summary)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "sample":
        sample(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "report":
        report(sys.argv[2])
    else:
        sys.exit(__doc__)
