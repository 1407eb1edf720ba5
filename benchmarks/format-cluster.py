#!/usr/bin/env python3
"""Regenerates the cluster rate-limit section of docs/BENCHMARKS.md from benchmarks/run-cluster.sh's
results.

Usage: format-cluster.py RESULTS_DIR DOC. Reads RESULTS_DIR/{thrpt,avgt}.json, commands.txt,
redis-version.txt and load-*.txt; the peers' versions come from benchmarks/pom.xml.
"""
import json
import os
import re
import sys
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import docsection  # noqa: E402

TARGET_ADDED_NS = 50
ZERO_BYTES = 0.1  # below this, B/op is JMH's own bookkeeping spread over millions of calls


def versions():
    pom = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "pom.xml")).read()
    return {k: re.search(r"<%s\.version>([^<]+)<" % k, pom).group(1)
            for k in ("bucket4j", "jedis", "redisson")}


def rows():
    v = versions()
    return [
        ("bucket4j", "Bucket4j %s, Jedis %s backend" % (v["bucket4j"], v["jedis"]),
         "`BucketProxy.tryConsume(1)`: compare-and-swap, the bucket's state read (`GET`) and "
         "swapped by a script (`EVAL`), on the call's thread"),
        ("redisson", "Redisson %s" % v["redisson"],
         "`RRateLimiter.tryAcquire()`: one script (`EVAL`) on the call's thread"),
        ("leveeLocal", "Levee local scope",
         "`Engine.http(...)`, `start`, `complete` on `rate-limit: { rate: 1000000000/s }`"),
        ("leveeCluster", "Levee cluster scope",
         "the same with `scope: cluster` and `settings.cluster` naming the Redis; the agent's "
         "settling thread (`ClusterSync`) talks to it meanwhile"),
    ]


def load(results_dir, mode):
    found, meta = {}, None
    path = os.path.join(results_dir, mode + ".json")
    if not os.path.exists(path):
        return found, meta
    with open(path) as f:
        for r in json.load(f):
            method = r["benchmark"].split(".")[-1]
            found[method] = {
                "score": r["primaryMetric"]["score"],
                "err": r["primaryMetric"]["scoreError"],
                "bytes": r["secondaryMetrics"].get("gc.alloc.rate.norm", {}).get("score"),
            }
            meta = meta or r
    return found, meta


def num(r, fmt):
    if r is None:
        return "—"
    err = r["err"]
    if isinstance(err, (int, float)) and err == err:
        return (fmt + " ± " + fmt) % (r["score"], err)
    return fmt % r["score"]


def calls(r):
    if r is None:
        return "—"
    text = num(r, "%.0f")
    return re.sub(r"\d+", lambda m: "{:,}".format(int(m.group(0))), text)


def nbytes(r):
    if r is None or r["bytes"] is None:
        return "—"
    b = r["bytes"]
    return "0" if b < ZERO_BYTES else ("%.2f" % b if b < 10 else "%.0f" % b)


def ratio(r, base):
    if r is None or base is None or base["score"] <= 0:
        return "—"
    x = r["score"] / base["score"]
    return "%.0f×" % x if x >= 10 else "%.2f×" % x


def section(results_dir):
    thrpt, meta_t = load(results_dir, "thrpt")
    avgt, meta_a = load(results_dir, "avgt")
    meta = meta_a or meta_t
    if meta is None:
        sys.exit("%s: no results (thrpt.json, avgt.json)" % results_dir)
    intro = (
        "What a call costs its thread when its rate limit is the whole cluster's, kept in Redis: the "
        "peers ask Redis on the call's thread; Levee decides from the share its instance holds and "
        "settles with Redis in the background (`scope: cluster`, SPEC §5.3). One thread, one Redis "
        "on loopback (no network: a real one adds its round trip to every peer call, and nothing to "
        "Levee's), a limit every call passes (a refused call fails the run), and the hot path's few "
        "nanoseconds of work (`Work.run()`) in every call. The peers get 1,000,000/s: a thread that "
        "waits on Redis for each call never nears it. Levee gets 10⁹/s, as in the hot path: one "
        "thread deciding locally asks for tens of millions a second, and a limit of 10⁶/s would "
        "refuse most of them, which would measure refusals. Source: "
        "`benchmarks/src/main/java/io/levee/benchmarks/ClusterRateLimit.java`; run it again with "
        "`benchmarks/run-cluster.sh` (about three minutes; it starts and stops its own redis-server).")
    redis = re.search(r"v=(\S+)", docsection.read(results_dir, "redis-version.txt"))
    lines = [
        "## Cluster rate limit: per-call cost",
        "",
        textwrap.fill(intro, 100, break_on_hyphens=False, break_long_words=False),
        "",
        "### Run",
        "- Machine: " + docsection.machine(),
        "- JDK: %s %s (%s), JMH %s"
        % (meta["vmName"], meta["vmVersion"], meta["jdkVersion"], meta["jmhVersion"]),
        "- Redis: %s on 127.0.0.1, `--save \"\" --appendonly no`"
        % (redis.group(1) if redis else "(version not recorded)"),
        "- JVM flags: `%s`" % " ".join(meta["jvmArgs"]),
        "- Load average (1, 5, 15 min) before: `%s`; after: `%s`"
        % (docsection.load_avg(results_dir, "load-before.txt"),
           docsection.load_avg(results_dir, "load-after.txt")),
        "- Settings: %d fork, %d × %s warm-up, %d × %s measurement per benchmark and mode, 1 thread"
        % (meta["forks"], meta["warmupIterations"], meta["warmupTime"],
           meta["measurementIterations"], meta["measurementTime"]),
        "- Commands (from the repository root; the port is the run's own):",
        "",
        "```",
        docsection.read(results_dir, "commands.txt"),
        "```",
        "",
        "### Results (mean ± 99.9 % confidence half-width; B/call is `gc.alloc.rate.norm`)",
        "",
        "| Contender | Each call | Calls/s per thread | ns per call | B/call | ns per call, to Levee cluster scope |",
        "|---|---|---:|---:|---:|---:|",
    ]
    cluster = avgt.get("leveeCluster")
    for method, name, what in rows():
        a = avgt.get(method)
        lines.append("| %s | %s | %s | %s | %s | %s |"
                     % (name, what, calls(thrpt.get(method)), num(a, "%.1f"), nbytes(a),
                        ratio(a, cluster)))
    local = avgt.get("leveeLocal")
    lines += ["", "### Target", ""]
    if local and cluster:
        added = cluster["score"] - local["score"]
        lines.append(
            "- Cluster scope adds at most %d ns per call to local scope, 1 thread: %+.1f ns, **%s**."
            % (TARGET_ADDED_NS, added, "met" if added <= TARGET_ADDED_NS else "not met"))
    else:
        lines.append("- Cluster scope against local scope: not measured in this run.")
    return "\n".join(lines)


def main():
    results_dir, doc = sys.argv[1:3]
    docsection.write(doc, "cluster", "run-cluster.sh", section(results_dir), ["hotpath"])


if __name__ == "__main__":
    main()
