package io.levee.rules.load;

import io.levee.rules.model.AdaptiveSpec;
import io.levee.rules.model.CallKind;
import io.levee.rules.model.CircuitBreakerSpec;
import io.levee.rules.model.ConcurrencySpec;
import io.levee.rules.model.Defaults;
import io.levee.rules.model.KeySpec;
import io.levee.rules.model.RateLimitSpec;
import io.levee.rules.model.RateTier;
import io.levee.rules.model.TimeoutsSpec;
import io.levee.rules.time.Durations;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Reads the policies of a resource: rate-limit, concurrency, circuit-breaker, adaptive, timeouts. A
 * default that would contradict a value the file gives yields to it (only {@code min-limit: 300}
 * raises the default {@code max-limit} to 300); two values the file gives that contradict each
 * other are an error. {@code kind} is the resource's kind of call, or null when its match is
 * broken.
 */
final class PolicyReader {
  static final String[] RATE_LIMIT = {
    "rate", "burst", "warm-up", "max-wait", "per", "scope", "overrides"
  };
  static final String[] TIER = {"keys", "rate", "burst"};
  static final String[] CONCURRENCY = {"max", "max-wait"};
  static final String[] CIRCUIT_BREAKER = {
    "failure-rate",
    "slow-call",
    "slow-call-rate",
    "window",
    "minimum-calls",
    "open-for",
    "open-for-max",
    "half-open-calls"
  };
  static final String[] ADAPTIVE = {"min-limit", "max-limit", "initial-limit", "cpu-target"};
  static final String[] TIMEOUTS = {"connect", "read", "query"};

  private static final int MAX_LIMIT = 1_000_000;
  private static final ValueType<Long> POSITIVE_DURATION = Types.duration(1);
  private static final ValueType<Long> WAIT = Types.duration(0);

  private static final ValueType<Boolean> SCOPE =
      ValueType.of(
          "local or cluster",
          new ValueType.Parse<Boolean>() {
            @Override
            public Boolean parse(String text) throws ValueType.Bad {
              if (text.equals("local")) {
                return Boolean.FALSE;
              }
              if (text.equals("cluster")) {
                return Boolean.TRUE;
              }
              throw new ValueType.Bad();
            }
          });

  private static final ValueType<Double> TIER_RATE =
      ValueType.of(
          "a rate like 200/s, or unlimited",
          new ValueType.Parse<Double>() {
            @Override
            public Double parse(String text) throws ValueType.Bad {
              return text.equals("unlimited")
                  ? RateTier.UNLIMITED
                  : Types.RATE_PER_SECOND.parse(text);
            }
          });

  private PolicyReader() {}

  /**
   * {@code clustered}: whether the file has {@code settings.cluster}, which a cluster scope needs.
   */
  static RateLimitSpec rateLimit(Section s, CallKind kind, boolean clustered) {
    Double rate = s.require("rate", Types.RATE_PER_SECOND, "how many calls may pass, like 50/s");
    Double burst = s.get("burst", Types.number(1), null);
    long warmUp = s.get("warm-up", WAIT, 0L);
    long maxWait = s.get("max-wait", WAIT, 0L);
    KeySpec per = s.get("per", Patterns.KEY, null);
    if (per != null && kind != null && kind != CallKind.SERVLET) {
      s.reject(
          "per",
          "`per` gives each client of an inbound request its own bucket, so it applies"
              + " only to servlet resources; this resource matches "
              + kind.key
              + " calls");
    }
    boolean cluster = s.get("scope", SCOPE, Boolean.FALSE);
    if (cluster && !clustered) {
      s.reject(
          "scope",
          "`scope: cluster` shares the rate through Redis: add `settings: { cluster: { redis:"
              + " redis://HOST:6379/0 } }`, or leave `scope` out for a limit per JVM");
    }
    if (cluster && warmUp > 0) {
      s.reject(
          "warm-up", "`warm-up` is not supported with `scope: cluster` yet; leave one of them out");
    }
    List<RateTier> overrides = tiers(s);
    if (rate == null) {
      return null;
    }
    return new RateLimitSpec(
        rate, burst != null ? burst : Math.max(1, rate), warmUp, maxWait, per, cluster, overrides);
  }

  /** {@code overrides}: a list of {@code { keys, rate, burst }}; empty when absent or invalid. */
  private static List<RateTier> tiers(Section s) {
    List<RateTier> tiers = new ArrayList<RateTier>();
    if (!s.has("overrides")) {
      return tiers;
    }
    if (!s.has("per")) {
      s.reject(
          "overrides",
          "`overrides` gives some keys another rate, so it needs `per`, which says what the key"
              + " is (ip, header:NAME, param:NAME or jwt:CLAIM)");
      return tiers;
    }
    for (Section t : s.sections("overrides", "{ keys: [\"premium-*\"], rate: 200/s }", TIER)) {
      List<String> keys = t.oneOrList("keys", Patterns.KEY_PATTERN, "the keys it applies to");
      Double rate =
          t.require("rate", TIER_RATE, "how many calls each of these keys may make, or unlimited");
      Double burst = t.get("burst", Types.number(1), null);
      if (burst != null && rate != null && rate == RateTier.UNLIMITED) {
        t.reject("burst", "an unlimited key has no bucket, so no burst; leave `burst` out");
      }
      if (keys != null && rate != null) {
        tiers.add(new RateTier(keys, rate, burst != null ? burst : Math.max(1, rate)));
      }
    }
    return tiers;
  }

  static ConcurrencySpec concurrency(Section s) {
    Integer max = s.require("max", Types.whole(1, MAX_LIMIT), "how many calls may be in flight");
    long maxWait = s.get("max-wait", WAIT, 0L);
    return max == null ? null : new ConcurrencySpec(max, maxWait);
  }

  static CircuitBreakerSpec circuitBreaker(Section s) {
    double failureRate = s.get("failure-rate", Types.RATIO, Defaults.BREAKER_FAILURE_RATE);
    long slowCall = s.get("slow-call", POSITIVE_DURATION, 0L);
    double slowCallRate = s.get("slow-call-rate", Types.RATIO, Defaults.BREAKER_SLOW_CALL_RATE);
    if (s.has("slow-call-rate") && !s.has("slow-call")) {
      s.reject(
          "slow-call-rate",
          "`slow-call-rate` needs `slow-call`, the duration above which a"
              + " call counts as slow");
    }
    long window =
        s.get("window", Types.duration(TimeUnit.SECONDS.toNanos(1)), Defaults.BREAKER_WINDOW_NANOS);
    int minimumCalls =
        s.get("minimum-calls", Types.whole(1, MAX_LIMIT), Defaults.BREAKER_MINIMUM_CALLS);
    Long openFor = s.get("open-for", POSITIVE_DURATION, null);
    Long openForMax = s.get("open-for-max", POSITIVE_DURATION, null);
    int halfOpenCalls =
        s.get("half-open-calls", Types.whole(1, 10_000), Defaults.BREAKER_HALF_OPEN_CALLS);
    if (openFor != null && openForMax != null && openForMax < openFor) {
      s.reject(
          "open-for-max",
          "`open-for-max` ("
              + Durations.format(openForMax)
              + ") must not be less than `open-for` ("
              + Durations.format(openFor)
              + ")");
    }
    long open =
        openFor != null ? openFor : Math.min(Defaults.BREAKER_OPEN_FOR_NANOS, orMax(openForMax));
    long openMax =
        openForMax != null ? openForMax : Math.max(Defaults.BREAKER_OPEN_FOR_MAX_NANOS, open);
    return new CircuitBreakerSpec(
        failureRate, slowCall, slowCallRate, window, minimumCalls, open, openMax, halfOpenCalls);
  }

  static AdaptiveSpec adaptive(Section s) {
    ValueType<Integer> limit = Types.whole(1, MAX_LIMIT);
    Integer min = s.get("min-limit", limit, null);
    Integer max = s.get("max-limit", limit, null);
    Integer initial = s.get("initial-limit", limit, null);
    double cpuTarget = s.get("cpu-target", Types.RATIO, Defaults.ADAPTIVE_CPU_TARGET);
    if (min != null && max != null && max < min) {
      s.reject("max-limit", "`max-limit` (" + max + ") is less than `min-limit` (" + min + ")");
    }
    if (initial != null && min != null && initial < min) {
      s.reject(
          "initial-limit",
          "`initial-limit` (" + initial + ") is less than `min-limit` (" + min + ")");
    }
    if (initial != null && max != null && initial > max) {
      s.reject(
          "initial-limit",
          "`initial-limit` (" + initial + ") is more than `max-limit` (" + max + ")");
    }
    int lo =
        min != null
            ? min
            : Math.min(Defaults.ADAPTIVE_MIN_LIMIT, Math.min(orMax(max), orMax(initial)));
    int hi =
        max != null
            ? max
            : Math.max(Defaults.ADAPTIVE_MAX_LIMIT, Math.max(orZero(min), orZero(initial)));
    int start =
        initial != null ? initial : Math.max(lo, Math.min(hi, Defaults.ADAPTIVE_INITIAL_LIMIT));
    return new AdaptiveSpec(lo, hi, start, cpuTarget);
  }

  static TimeoutsSpec timeouts(Section s, CallKind kind) {
    long connect = timeout(s, "connect", kind, CallKind.HTTP);
    long read = timeout(s, "read", kind, CallKind.HTTP);
    long query = timeout(s, "query", kind, CallKind.JDBC);
    return new TimeoutsSpec(connect, read, query);
  }

  private static long timeout(Section s, String key, CallKind kind, CallKind only) {
    long nanos = s.get(key, POSITIVE_DURATION, 0L);
    // a servlet or method resource gets one error for the whole of timeouts, from the resource
    boolean noTimeouts = kind == CallKind.SERVLET || kind == CallKind.METHOD;
    if (s.has(key) && kind != null && kind != only && !noTimeouts) {
      s.reject(
          key,
          "`"
              + key
              + "` applies only to "
              + only.key
              + " resources; this resource"
              + " matches "
              + kind.key
              + " calls");
    }
    return nanos;
  }

  private static int orMax(Integer value) {
    return value == null ? Integer.MAX_VALUE : value;
  }

  private static long orMax(Long value) {
    return value == null ? Long.MAX_VALUE : value;
  }

  private static int orZero(Integer value) {
    return value == null ? 0 : value;
  }
}
