#!/usr/bin/env python3
"""The petclinic benchmark's helpers (benchmarks/run-petclinic.sh).

  petclinic-report.py sample URL FILE [SINCE]
                                        polls the agent's /status 5 times a second and appends the
                                        `system` limit to FILE, one number a line, until stopped;
                                        then replaces FILE with the limit the agent stamped at the
                                        end of each second since SINCE (epoch ms; default: when this
                                        started), and writes the CPU load of those seconds to FILE
                                        with -cpu for -limit (its /samples)
  petclinic-report.py report DIR        reads DIR/raw (wrk's JSON lines, the limit samples), writes
                                        one table per run and DIR/summary.md, prints the summary
                                        (the open-loop point too, when DIR/raw has one)
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
CPU = re.compile(r'"cpu":([0-9.]+)')
RUN = re.compile(r"(?P<variant>[a-z]+)-r(?P<round>\d+)-c(?P<conns>\d+)\.json$")
OPEN = re.compile(r"(?P<variant>[a-z]+)-r(?P<round>\d+)-open\.json$")


def system_limit(body):
    m = SYSTEM_LIMIT.search(body)
    return int(m.group(1)) if m else None


def sample(url, path, since=None):
    # The point's start, from the script: this process shares a CPU with wrk and PostgreSQL and
    # can start seconds late, so its own clock would leave out the point's first seconds.
    since = int(since) if since else int(time.time() * 1000)

    def stop(*_):
        # Whole seconds that ended since the point started: the agent stamps each at its end. Its
        # samples replace the polled limits, which begin only once this process runs.
        try:
            samples_url = url.rsplit("/", 1)[0] + f"/samples?since={since}"
            with urllib.request.urlopen(samples_url, timeout=2) as resp:
                body = resp.read().decode()
            with open(path.replace("-limit", "-cpu"), "w") as out:
                out.write("".join(f"{x}\n" for x in CPU.findall(body)))
            limits = SYSTEM_LIMIT.findall(body)
            if limits:
                with open(path, "w") as out:
                    out.write("".join(f"{x}\n" for x in limits))
        except OSError:
            pass
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
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


def read_limits(path):
    limits = path[: -len(".json")] + "-limit.txt"
    if not os.path.exists(limits):
        return None
    with open(limits) as f:
        return limit_stats([int(x) for x in f.read().split()])


def read_cpu(path):
    """The agent's smoothed process CPU load, mean of the seconds sampled, as "0.62"; "—" if none."""
    cpu = path[: -len(".json")] + "-cpu.txt"
    if not os.path.exists(cpu):
        return "—"
    with open(cpu) as f:
        loads = [float(x) for x in f.read().split()]
    return f"{statistics.fmean(loads):.2f}" if loads else "—"


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
        "limit": read_limits(path),
        "cpu": read_cpu(path),
        "pages": page_shares(w.get("pages")),
    }
    return run


def page_shares(pages):
    """The 200 answers of each page (pages.lua) as "list/search/owner/vets" percentages, or "—"."""
    total = sum(pages.values()) if pages else 0
    if total == 0:
        return "—"
    return "/".join(f"{100 * pages.get(p, 0) / total:.0f}" for p in ("list", "search", "owner", "vets"))


def open_table(d):
    """The open-loop point: per variant and round, rates per second of the measured stretch."""
    rows = []
    for path in sorted(glob.glob(os.path.join(d, "raw", "*-open.json"))):
        m = OPEN.search(os.path.basename(path))
        if not m:
            continue
        with open(path) as f:
            w = json.loads(f.read().strip().splitlines()[-1])
        n = w["seconds"]
        mean, cov, span = fmt_limit(read_limits(path))
        rows.append(
            f"| {m['variant']} | {m['round']} | {w['offered'] / n:.0f} | {w['good'] / n:.0f} "
            f"| {w['late'] / n:.0f} | {w['rejected'] / n:.0f} | {w['timeouts'] / n:.0f} "
            f"| {w['errors'] / n:.0f} | {w['p50_us'] / 1000:.1f} | {w['p99_us'] / 1000:.1f} "
            f"| {mean} | {cov} | {span} | {read_cpu(path)} |"
        )
    if not rows:
        return ""
    return (
        "\n| variant | round | offered/s | goodput/s (2xx within 1 s) | late/s | rejected/s "
        "| timeouts/s | errors/s | admitted p50 (ms) | admitted p99 (ms) | limit mean "
        "| limit CoV | limit min–max | agent's CPU load |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|\n"
        + "\n".join(rows)
        + "\n"
    )


def others(runs):
    """The variants other than the baseline `none`, in the order the script names them."""
    order = ["control", "nomatch", "monitor", "before", "levee"]
    return sorted({v for v, _, _ in runs if v != "none"}, key=lambda v: (order.index(v) if v in order else 9, v))


def ratio(runs, variant, rnd, c):
    a, b = runs.get(("none", rnd, c)), runs.get((variant, rnd, c))
    if a is None or b is None or a["goodput"] <= 0:
        return None
    return b["goodput"] / a["goodput"]


def median_table(runs):
    """Per connection count and variant, the median over the rounds of each round's ratio to none."""
    rows = []
    for c in sorted({c for v, _, c in runs if v == "none"}):
        rounds = sorted(rnd for v, rnd, cc in runs if v == "none" and cc == c)
        for variant in others(runs):
            r = [x for x in (ratio(runs, variant, rnd, c) for rnd in rounds) if x is not None]
            if r:
                rows.append(
                    f"| {c} | {variant} | {len(r)} | {statistics.median(r):.3f} | {min(r):.3f}–{max(r):.3f} |"
                )
    if not rows:
        return ""
    return (
        "\n| connections | variant | rounds | goodput / none's, median | min–max |\n"
        "|---:|---|---:|---:|---|\n" + "\n".join(rows) + "\n"
    )


def launches(d):
    """Round number to the launch of the applications it was measured on (1 when not recorded)."""
    path = os.path.join(d, "raw", "launches.txt")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {int(r): int(n) for r, n in (line.split() for line in f if line.strip())}


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
        "| limit mean | limit CoV | limit min–max | agent's CPU load | 200s by page, % (list/search/owner/vets) |\n"
        "|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|\n"
    )
    for variant, rnd in sorted({(v, r) for v, r, _ in runs}):
        rows = []
        for c in sorted(c for v, r, c in runs if (v, r) == (variant, rnd)):
            x = runs[(variant, rnd, c)]
            mean, cov, span = fmt_limit(x["limit"])
            rows.append(
                f"| {c} | {x['goodput']:.0f} | {x['non2xx']} | {x['socket_errors']} "
                f"| {x['p50']:.1f} | {x['p99']:.1f} | {mean} | {cov} | {span} | {x['cpu']} | {x['pages']} |\n"
            )
        with open(os.path.join(d, f"run-{variant}-r{rnd}.md"), "w") as f:
            f.write(f"### {variant}, round {rnd}\n\n" + head + "".join(rows))
    variants = others(runs)
    launch = launches(d)
    lines = [
        "| launch | round | connections | goodput, none | "
        + " | ".join(f"{v} / none" for v in variants)
        + " | rejected (non-2xx), levee | p99 none / levee (ms) | limit mean | limit CoV "
        "| limit min–max | agent's CPU load |",
        "|---:|---:|---:|---:|" + "---:|" * len(variants) + "---:|---|---:|---:|---|---:|",
    ]
    for _, rnd, c in sorted(k for k in runs if k[0] == "none"):
        a, b = runs[("none", rnd, c)], runs.get(("levee", rnd, c))
        cells = []
        for v in variants:
            r = ratio(runs, v, rnd, c)
            cells.append("—" if r is None else f"{r:.3f} ({runs[(v, rnd, c)]['goodput']:.0f})")
        if b is None:
            rejected, p99, (mean, cov, span), cpu = "—", f"{a['p99']:.1f} / —", fmt_limit(None), "—"
        else:
            rejected, p99, (mean, cov, span), cpu = (
                b["non2xx"], f"{a['p99']:.1f} / {b['p99']:.1f}", fmt_limit(b["limit"]), b["cpu"]
            )
        lines.append(
            f"| {launch.get(rnd, 1)} | {rnd} | {c} | {a['goodput']:.0f} | " + " | ".join(cells)
            + f" | {rejected} | {p99} | {mean} | {cov} | {span} | {cpu} |"
        )
    summary = "\n".join(lines) + "\n" + median_table(runs) + open_table(d)
    with open(os.path.join(d, "summary.md"), "w") as f:
        f.write(summary)
    print(summary)


if __name__ == "__main__":
    if len(sys.argv) in (4, 5) and sys.argv[1] == "sample":
        sample(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "report":
        report(sys.argv[2])
    else:
        sys.exit(__doc__)
