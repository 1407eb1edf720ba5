#!/usr/bin/env python3
"""Regenerates the instrumentation section of docs/BENCHMARKS.md from run-instrumentation.sh.

Usage: format-instrumentation.py RESULTS_DIR DOC. Reads RESULTS_DIR/{none,agent-no-match,
agent-admit}.json, commands.txt and load-*.txt.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import docsection  # noqa: E402

CASES = [
    ("none", "no agent"),
    ("agent-no-match", "agent, no rule matches"),
    ("agent-admit", "agent, a rule admits the call"),
]
CALLS = [
    ("httpCall", "`HttpURLConnection` GET to a local server"),
    ("apache4Get", "Apache HttpClient 4.5 GET (pooled client)"),
    ("apache5Get", "Apache HttpClient 5 classic GET (pooled client)"),
    ("apache5AsyncGet", "Apache HttpClient 5 async GET (`SimpleHttpRequest`)"),
    ("okHttpGet", "OkHttp 4 `Call.execute` GET"),
    ("jdkClientGet", "`java.net.http.HttpClient.send` GET"),
    ("jdbcQuery", "prepared H2 query by primary key"),
    ("methodCall", "an application method a `method` rule names (a few ns of work)"),
]


def load(results_dir):
    found, meta = {}, None
    for case, _ in CASES:
        path = os.path.join(results_dir, case + ".json")
        if not os.path.exists(path):
            continue
        with open(path) as f:
            for r in json.load(f):
                method = r["benchmark"].split(".")[-1]
                # MethodCalls reports nanoseconds: its call is far shorter than a microsecond.
                scale = 0.001 if r["primaryMetric"]["scoreUnit"].startswith("ns") else 1.0
                err = r["primaryMetric"]["scoreError"]
                found[(case, method)] = {
                    "us": r["primaryMetric"]["score"] * scale,
                    "err": err * scale if isinstance(err, (int, float)) else err,
                    "bytes": r["secondaryMetrics"].get("gc.alloc.rate.norm", {}).get("score"),
                }
                meta = meta or r
    return found, meta


def us(r):
    if r is None:
        return "—"
    err = r["err"]
    digits = 3 if r["us"] < 1 else 2
    if isinstance(err, (int, float)) and err == err:
        return "%.*f ± %.*f" % (digits, r["us"], digits, err)
    return "%.*f" % (digits, r["us"])


def table(found):
    lines = [
        "| Call | Case | µs/op | B/op | Ratio to no agent | Added µs | Added B/op |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for method, call in CALLS:
        base = found.get(("none", method))
        for case, label in CASES:
            r = found.get((case, method))
            if r is None:
                continue
            b = "%.0f" % r["bytes"] if r["bytes"] is not None else "—"
            if base is None or case == "none":
                ratio = added = added_b = "—"
            else:
                ratio = "%.2f×" % (r["us"] / base["us"])
                added = "%+.*f" % (3 if base["us"] < 1 else 2, r["us"] - base["us"])
                added_b = ("%+.0f" % (r["bytes"] - base["bytes"])
                           if r["bytes"] is not None and base["bytes"] is not None else "—")
            lines.append("| %s | %s | %s | %s | %s | %s | %s |" % (call, label, us(r), b, ratio, added, added_b))
    return lines


def section(results_dir):
    found, meta = load(results_dir)
    if meta is None:
        sys.exit("no results in " + results_dir)
    return "\n".join([
        "## Instrumentation: what the agent adds to a real call",
        "",
        "JMH `InstrumentedCalls` (`benchmarks/src/main/java/io/levee/benchmarks/instrumentation/`): one",
        "`HttpURLConnection` GET to a local `com.sun.net.httpserver` server (2-byte body, keep-alive) and one",
        "prepared H2 query (`SELECT amount FROM prices WHERE id = ?` on a connection held open, statement",
        "prepared and closed per call); and `ClientCalls`: one GET to the same server through each other",
        "client Levee weaves (Apache HttpClient 4.5.14 and 5.6.5 classic and async, OkHttp 4.12.0, the",
        "JDK's `HttpClient`), each built once with its default pool; and `MethodCalls`: one call of an",
        "application method (`benchmarkapp.PriceBook.price`, a few nanoseconds of arithmetic). The",
        "benchmarks know nothing of",
        "Levee; each case is its own run",
        "whose forks get, or not, `-javaagent:agent/target/levee-agent.jar=rules=...`: no agent; rules",
        "for another host, another database and another class (every HTTP and JDBC call is instrumented,",
        "asked about, matched by no resource; the method is not woven at all); rules with a `concurrency: { max: 10000 }` resource for each call (decided, admitted,",
        "recorded). The forks run from `benchmarks/target/classes` with JMH, H2 and the clients only, so Levee's",
        "classes come from the agent jar alone. B/op is `gc.alloc.rate.norm` (every thread of the JVM,",
        "so the HTTP server's allocation is in it too).",
        "",
        "### Run",
        "- Machine: " + docsection.machine(),
        "- JDK: %s %s (%s), JMH %s" % (meta["vmName"], meta["vmVersion"], meta["jdkVersion"], meta["jmhVersion"]),
        "- Load average (1, 5, 15 min) before: `%s`; after: `%s`"
        % (docsection.load_avg(results_dir, "load-before.txt"),
           docsection.load_avg(results_dir, "load-after.txt")),
        "- Settings: %d fork, %d × %s warm-up, %d × %s measurement, 1 thread"
        % (meta["forks"], meta["warmupIterations"], meta["warmupTime"],
           meta["measurementIterations"], meta["measurementTime"]),
        "- Commands (`benchmarks/run-instrumentation.sh`; from the repository root):",
        "",
        "```",
        docsection.read(results_dir, "commands.txt"),
        "```",
        "",
        "### Results (mean ± 99.9 % confidence half-width)",
        "",
    ] + table(found))


def main():
    results_dir, doc = sys.argv[1], sys.argv[2]
    docsection.write(doc, "instrumentation", "run-instrumentation.sh", section(results_dir),
                     ["startup", "hotpath"])


if __name__ == "__main__":
    main()
